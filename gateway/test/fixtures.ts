/**
 * A second, tiny service for gateway tests: real tools on the real tool host and bus, so the tests can
 * show one service failing while another keeps answering, and a call running past its deadline.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Router } from "express";
import { z } from "zod";
import { defineTool, hostTools } from "@bancada/service-kit";
import type { ServiceFactory } from "@bancada/e2e";
import { createScriptsService } from "@bancada/scripts";

export const scriptsFactory: ServiceFactory = async (deps) => {
  const service = await createScriptsService(deps);
  return { name: "scripts", routes: service.routes, stop: () => service.stop() };
};

/** What the slow tool saw: whether its call was cancelled. */
export const slowCalls: { aborted: boolean }[] = [];
export const waitCalls: { aborted: boolean }[] = [];

export const echoFactory: ServiceFactory = async ({ bus, subjects, log }) => {
  const echo = defineTool({
    name: "echo",
    description: "Returns its input.",
    input: z.strictObject({ message: z.string().max(50) }),
    output: z.object({ message: z.string() }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scope: "docs:read",
    profile: "core",
    handler: async (_ctx, input) => input,
  });
  const slow = defineTool({
    name: "slow_echo",
    description: "Waits, then returns.",
    input: z.strictObject({ ms: z.number().int().min(0).max(10_000) }),
    output: z.object({ waited: z.number() }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scope: "docs:read",
    maxDurationMs: 300,
    handler: async (ctx, input) => {
      const record = { aborted: false };
      slowCalls.push(record);
      ctx.signal.addEventListener("abort", () => (record.aborted = true));
      await sleep(input.ms);
      return { waited: input.ms };
    },
  });
  const wait = defineTool({
    name: "wait",
    description: "Waits up to 10 s unless cancelled.",
    input: z.strictObject({ ms: z.number().int().min(0).max(10_000) }),
    output: z.object({ waited: z.number() }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scope: "docs:read",
    maxDurationMs: 10_000,
    handler: async (ctx, input) => {
      const record = { aborted: false };
      waitCalls.push(record);
      ctx.signal.addEventListener("abort", () => (record.aborted = true));
      await sleep(input.ms, undefined, { signal: ctx.signal }).catch(() => {});
      return { waited: input.ms };
    },
  });
  const count = defineTool({
    name: "count",
    description: "Counts to n, reporting progress at each step.",
    input: z.strictObject({ n: z.number().int().min(1).max(10) }),
    output: z.object({ counted: z.number() }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scope: "docs:read",
    handler: async (ctx, input) => {
      for (let i = 1; i <= input.n; i++) {
        ctx.progress({ progress: i, total: input.n, message: `step ${i}` });
        await sleep(20);
      }
      return { counted: input.n };
    },
  });
  const host = hostTools({
    bus,
    subjects,
    service: "echo",
    version: "1",
    instructions: "Echo: for tests.",
    tools: [echo, slow, wait, count],
    prompts: [
      {
        name: "greet",
        description: "Greets someone by name.",
        arguments: [{ name: "name", description: "Who to greet.", required: true }],
        scope: "docs:read",
        render: async (_ctx, args) => ({ messages: [{ role: "user", content: { type: "text", text: `Hello, ${args.name}!` } }] }),
      },
    ],
    log,
  });
  return { name: "echo", routes: Router(), stop: async () => host.stop() };
};
