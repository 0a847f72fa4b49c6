/**
 * The suite's fixtures that ask the client questions or send it log messages, declared as any service's tools: the
 * handler calls `ctx.ask(...)` / `ctx.tell(...)` (service-kit client-dialog.ts), so the suite exercises the whole
 * relay — the service's questions over the bus, the gateway's input_required result and sealed state, the answers
 * brought back to the service in the next round, log messages back over the bus.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import type { ClientQuestion } from "@bancada/contracts";
import { defineTool, type PromptDefinition, type Tool, type ToolContext } from "@bancada/service-kit";

const readsOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const shown = z.object({ shown: z.string() });
const common = { input: z.strictObject({}), output: shown, annotations: readsOnly, scope: "docs:read", profile: "core" } as const;

const form = (message: string, field: string): ClientQuestion => ({
  method: "elicitation/create",
  params: { message, requestedSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] } },
});
const sampling = (text: string, maxTokens: number): ClientQuestion => ({
  method: "sampling/createMessage",
  params: { messages: [{ role: "user", content: { type: "text", text } }], maxTokens },
});
const roots: ClientQuestion = { method: "roots/list", params: {} };

/** The field of an accepted form, or the action taken instead. */
function formAnswer(answer: unknown, field: string): string {
  const { action, content } = (answer ?? {}) as { action?: string; content?: Record<string, unknown> };
  return action === "accept" ? String(content?.[field] ?? "") : `(${action ?? "no answer"})`;
}

function sampled(answer: unknown): string {
  const content = (answer as { content?: { text?: string } } | undefined)?.content;
  return content?.text ?? "(no text)";
}

function rootsOf(answer: unknown): string {
  return ((answer as { roots?: { uri: string }[] } | undefined)?.roots ?? []).map((root) => root.uri).join(", ");
}

/** An asking tool: `ask` returns the text shown once every question is answered. */
function asking(name: string, description: string, ask: (ctx: ToolContext) => Promise<string>): Tool {
  return defineTool({
    ...common,
    name,
    description,
    asks: true,
    handler: async (ctx) => ({ shown: await ask(ctx) }),
    present: (result) => [{ type: "text", text: result.shown }],
  });
}

export function askingTools(): Tool[] {
  return [
    asking("test_input_required_result_elicitation", "Asks the person's name, then greets them.", async (ctx) => {
      const { user_name } = await ctx.ask({ user_name: form("What is your name?", "name") });
      return `Hello, ${formAnswer(user_name, "name")}!`;
    }),
    asking("test_input_required_result_sampling", "Asks the client's model a question, then returns its answer.", async (ctx) => {
      const { capital_question } = await ctx.ask({ capital_question: sampling("What is the capital of France?", 100) });
      return sampled(capital_question);
    }),
    asking("test_input_required_result_list_roots", "Asks the client's roots, then names them.", async (ctx) => {
      const { client_roots } = await ctx.ask({ client_roots: roots });
      return `Roots: ${rootsOf(client_roots)}`;
    }),
    asking("test_input_required_result_multiple_inputs", "Asks a form, a sampling and the roots at once.", async (ctx) => {
      const answers = await ctx.ask({
        user_name: form("What is your name?", "name"),
        greeting: sampling("Generate a greeting", 50),
        client_roots: roots,
      });
      return `${sampled(answers.greeting)} ${formAnswer(answers.user_name, "name")} (${rootsOf(answers.client_roots)})`;
    }),
    asking("test_input_required_result_multi_round", "Asks two questions, one round after the other.", async (ctx) => {
      const { step1 } = await ctx.ask({ step1: form("Step 1: What is your name?", "name") });
      const { step2 } = await ctx.ask({ step2: form("Step 2: What is your favorite color?", "color") });
      return `${formAnswer(step1, "name")} likes ${formAnswer(step2, "color")}.`;
    }),
    asking("test_input_required_result_capabilities", "Asks only what the client said it can answer.", async (ctx) => {
      const questions: Record<string, ClientQuestion> = {};
      if (ctx.canAsk.has("sampling")) questions.capital_question = sampling("What is the capital of France?", 100);
      if (ctx.canAsk.has("elicitation")) questions.user_name = form("What is your name?", "name");
      if (ctx.canAsk.has("roots")) questions.client_roots = roots;
      const answers = await ctx.ask(questions);
      return `Answered: ${Object.keys(answers).join(", ") || "nothing (the client can be asked nothing)"}`;
    }),
    // the server-stateless scenario's probe: it asks for sampling whatever the client declared, so that a client
    // that did not declare it gets -32021 from the gateway (its SDK checks every question against the capabilities)
    asking("test_missing_capability", "Asks the client's model, whatever the client declared.", async (ctx) => {
      const { probe } = await ctx.ask({ probe: sampling("Say hello.", 10) });
      return sampled(probe);
    }),
    ...["test_tool_with_logging", "test_logging_tool"].map((name) =>
      defineTool({
        ...common,
        name,
        description: "Sends three info log messages, 50 ms apart, then returns.",
        logs: true,
        handler: async (ctx) => {
          for (const [i, text] of ["Tool execution started", "Tool processing data", "Tool execution completed"].entries()) {
            if (i > 0) await sleep(50);
            ctx.tell("info", text);
          }
          return { shown: "logged" };
        },
        present: () => [{ type: "text", text: "Tool with logging executed successfully." }],
      }),
    ),
  ];
}

/** The schema of the SEP-1034 scenario: a default for every primitive type. */
const withDefaults = {
  type: "object",
  properties: {
    name: { type: "string", default: "John Doe" },
    age: { type: "integer", default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
  },
};

/** The schema of the SEP-1330 scenario: the five kinds of enum. */
const enums = {
  type: "object",
  properties: {
    untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
    titledSingle: {
      type: "string",
      oneOf: [
        { const: "value1", title: "First Option" },
        { const: "value2", title: "Second Option" },
        { const: "value3", title: "Third Option" },
      ],
    },
    legacyEnum: { type: "string", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
    untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
    titledMulti: {
      type: "array",
      items: {
        anyOf: [
          { const: "value1", title: "First Choice" },
          { const: "value2", title: "Second Choice" },
          { const: "value3", title: "Third Choice" },
        ],
      },
    },
  },
};

/** A 2025-era fixture that takes one string argument and asks with it (the SDK puts the question to the client). */
function askingWith(
  name: string,
  argument: string,
  question: (value: string) => ClientQuestion,
  shownAs: (answer: unknown) => string,
): Tool {
  return defineTool({
    ...common,
    name,
    description: `Asks the client with the given ${argument}, then shows the answer.`,
    input: z.strictObject({ [argument]: z.string().max(2000) }),
    asks: true,
    handler: async (ctx, input: Record<string, string>) => {
      const { answer } = await ctx.ask({ answer: question(input[argument] ?? "") });
      return { shown: shownAs(answer) };
    },
    present: (result) => [{ type: "text", text: result.shown }],
  });
}

const completed = (answer: unknown) => {
  const { action, content } = (answer ?? {}) as { action?: string; content?: unknown };
  return `Elicitation completed: action=${action ?? "none"}, content=${JSON.stringify(content ?? {})}`;
};

/** The 2025-era suite's fixtures that ask: over a session (legacy-sessions.ts) or stdio, as real server-to-client requests. */
export function askingTools2025(): Tool[] {
  return [
    askingWith(
      "test_elicitation",
      "message",
      (message) => ({
        method: "elicitation/create",
        params: {
          message,
          requestedSchema: {
            type: "object",
            properties: {
              username: { type: "string", description: "User's response" },
              email: { type: "string", description: "User's email address" },
            },
            required: ["username", "email"],
          },
        },
      }),
      (answer) => `User response: ${completed(answer)}`,
    ),
    askingWith(
      "test_sampling",
      "prompt",
      (prompt) => sampling(prompt, 100),
      (answer) => `LLM response: ${sampled(answer)}`,
    ),
    asking("test_elicitation_sep1034_defaults", "Asks a form whose fields have defaults.", async (ctx) => {
      const { answer } = await ctx.ask({
        answer: { method: "elicitation/create", params: { message: "Confirm or change these.", requestedSchema: withDefaults } },
      });
      return completed(answer);
    }),
    asking("test_elicitation_sep1330_enums", "Asks a form with every kind of enum.", async (ctx) => {
      const { answer } = await ctx.ask({
        answer: { method: "elicitation/create", params: { message: "Pick some options.", requestedSchema: enums } },
      });
      return completed(answer);
    }),
  ];
}

/** The prompt that asks before it renders (input_required on a request that is not a tool call). */
export const askingPrompt: PromptDefinition = {
  name: "test_input_required_result_prompt",
  description: "Asks for the context the prompt should use, then renders it.",
  arguments: [],
  scope: "docs:read",
  render: async (ctx) => {
    const { user_context } = await ctx.ask({ user_context: form("What context should the prompt use?", "context") });
    const text = `Use this context: ${formAnswer(user_context, "context")}`;
    return { messages: [{ role: "user", content: { type: "text", text } }] };
  },
};
