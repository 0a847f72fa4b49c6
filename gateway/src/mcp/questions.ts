/**
 * A service's own questions to the client (docs/gateway.md#questions): a handler calls `ctx.ask(...)` (service-kit
 * client-dialog.ts) and, until the client has answered, the service replies with its questions instead of a result.
 * The gateway hands them to the client as MCP's `input_required` result — on 2026-07-28 the client answers and
 * calls again; on a 2025-era connection the SDK's legacy shim puts them to the client as `elicitation/create`,
 * `sampling/createMessage` and `roots/list` requests and calls the handler again itself — and the next round
 * carries every answer so far back to the service, which runs the handler again from the start.
 *
 * The answers of earlier rounds travel in the sealed request state (confirmations.ts: HMAC under the gateway's
 * shared secret, bound to the call, the account and the key), not in any replica's memory: any gateway replica
 * and any service replica take the next round, and an answer cannot be brought to another call. The state is
 * signed, not encrypted: the client can read its own answers in it.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  inputRequired,
  type ClientCapabilities,
  type InputRequiredResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { logLevels, type ClientQuestion, type ClientSide, type ErrorBody, type LogLevel } from "@bancada/contracts";
import type { Caller } from "./caller.js";
import { askedCall, foreignAnswer, sameCall, type AskedCall, type Confirmations } from "./confirmations.js";

/** A client's answers beyond this many bytes are refused: they travel back in every round's state. */
const maxAnswersBytes = 256 * 1024;

export interface Round {
  /** What the service is told of the client: what it can be asked, its answers so far, its log level. */
  client: ClientSide;
  /** The call's binding, to seal with the answers when the service asks again. */
  call: AskedCall;
}

/**
 * This round of a call that may ask: the client's answers so far (sealed earlier rounds' and this request's),
 * or the refusal of a state brought from another call. `confirmed` carries a confirmation settled earlier.
 */
export function roundOf(
  ctx: ServerContext,
  caller: Caller,
  target: string,
  args: Record<string, unknown> | undefined,
  declared: ClientCapabilities | undefined,
  logs: boolean,
): Round | { refused: ErrorBody } {
  const call = askedCall(target, args, caller);
  const sealed = ctx.mcpReq.requestState<AskedCall>();
  if (sealed !== undefined && (typeof sealed !== "object" || !sameCall(sealed, call))) return { refused: foreignAnswer(target) };
  const answers = { ...sealed?.answers, ...(ctx.mcpReq.inputResponses as Record<string, unknown> | undefined) };
  if (JSON.stringify(answers).length > maxAnswersBytes)
    return {
      refused: {
        code: "payload_too_large",
        message: `The answers to this call's questions exceed ${maxAnswersBytes} bytes; answer more briefly.`,
      },
    };
  const logLevel = logs ? logLevelOf(ctx) : undefined;
  return {
    client: { can: askable(capabilitiesOf(ctx, declared)), answers, ...(logLevel ? { logLevel } : {}) },
    call: { ...call, ...(sealed?.confirmed ? { confirmed: true } : {}) },
  };
}

/** The service's questions as MCP's `input_required` result, with the answers so far sealed in its state. */
export async function askClient(
  confirmations: Confirmations,
  round: Round,
  asks: Record<string, ClientQuestion>,
  confirmed: boolean,
): Promise<InputRequiredResult> {
  const call: AskedCall = { ...round.call, answers: round.client.answers, ...(confirmed ? { confirmed: true } : {}) };
  return inputRequired({
    inputRequests: asks as Parameters<typeof inputRequired>[0]["inputRequests"],
    requestState: await confirmations.mint(call),
  });
}

/** What the client declared it can answer: on 2026-07-28 in each request's envelope, on 2025 at initialize. */
function capabilitiesOf(ctx: ServerContext, declared: ClientCapabilities | undefined): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? declared;
}

function askable(capabilities: ClientCapabilities | undefined): ClientSide["can"] {
  const can: ClientSide["can"] = [];
  if (capabilities?.elicitation) can.push("elicitation");
  if (capabilities?.sampling) can.push("sampling");
  if (capabilities?.roots) can.push("roots");
  return can;
}

/**
 * The least severe level the client wants: 2026-07-28 names it per request (none: no log messages); a 2025-era
 * client sets it with logging/setLevel, which the SDK applies when it sends each message, so the service sends all.
 */
function logLevelOf(ctx: ServerContext): LogLevel | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (!envelope) return "debug";
  const level = envelope[LOG_LEVEL_META_KEY];
  return (logLevels as readonly unknown[]).includes(level) ? (level as LogLevel) : undefined;
}
