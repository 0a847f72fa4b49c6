/**
 * The client's side of a call as a handler sees it (`ctx.ask`, `ctx.canAsk`, `ctx.tell`; docs/gateway.md#questions).
 * A question the client has not answered yet ends the handler with `Unanswered`, which the tool host turns into
 * the reply `{ ok: true, asks }`; the gateway hands the questions to the client, and the client's next call brings
 * every answer so far back (sealed by the gateway), so the handler runs again from the start and `ask` answers.
 * Nothing waits anywhere between rounds: any replica of the service, behind any gateway replica, takes the next one.
 */
import { DomainError, ErrorCode, logLevels, type ClientQuestion, type ClientSide, type LogLevel } from "@bancada/contracts";
import type { ToolContext } from "./define-tool.js";

/** A handler's questions the client has not answered yet (thrown by `ask`, caught by the tool host). */
export class Unanswered extends Error {
  constructor(readonly questions: Record<string, ClientQuestion>) {
    super("The client has questions to answer before this call can go on.");
  }
}

type Dialog = Pick<ToolContext, "ask" | "canAsk" | "tell">;

/**
 * The dialog of one call. `declared` is whether the tool said it asks (a prompt always may): an undeclared ask is
 * the service's bug, since the gateway's fast path would have answered the call without the SDK that carries questions.
 */
export function clientDialog(client: ClientSide | undefined, declared: boolean, send: (log: unknown) => void): Dialog {
  const canAsk = new Set(client?.can ?? []);
  const threshold = client?.logLevel === undefined ? undefined : logLevels.indexOf(client.logLevel);
  return {
    canAsk,
    ask: async (questions) => {
      if (!declared) throw new Error("This tool asks its client questions but does not declare `asks: true`.");
      if (!client)
        throw new DomainError(
          ErrorCode.failedPrecondition,
          "This call needs answers from the person or the model of an MCP client; make it from an MCP client that can be asked.",
        );
      const unanswered = Object.entries(questions).filter(([id]) => !(id in client.answers));
      if (unanswered.length > 0) throw new Unanswered(Object.fromEntries(unanswered));
      return Object.fromEntries(Object.keys(questions).map((id) => [id, client.answers[id]]));
    },
    tell: (level: LogLevel, data: unknown) => {
      if (threshold !== undefined && logLevels.indexOf(level) >= threshold) send({ log: { level, data } });
    },
  };
}
