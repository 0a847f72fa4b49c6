/**
 * Confirmations through the client (docs/gateway.md#confirmations): a tool that declares a `confirmation` (a
 * delete) asks the person before it runs, when the client said it can ask — the 2026-07-28 `input_required`
 * result with an elicitation, or on a 2025-era connection the SDK's own server-to-client `elicitation/create`
 * (its legacy shim re-enters this same code with the answer). Accept runs the call as if the person had passed
 * the tool's argument (`confirm: true`); decline or cancel answers that nothing was done. A client that cannot ask
 * gets the tool's own contract unchanged.
 *
 * The state that travels with the question is sealed (HMAC, from the gateway secret every replica holds), so any
 * replica takes the answer and a state changed on the way is refused before the call is looked at. It names the
 * tool, the arguments (as a digest) and the key that asked, so an answer cannot be replayed for another call or by
 * another key. It is signed, not encrypted: the client can read those names, which are its own.
 */
import { createHash, hkdfSync } from "node:crypto";
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type InputRequiredResult,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { DomainError, ErrorCode, authorize, type ErrorBody, type ToolConfirmation } from "@bancada/contracts";
import type { Catalog } from "../catalog.js";
import type { Caller } from "./caller.js";

/**
 * What the sealed request state holds: enough to refuse an answer given for another call or by another key, and
 * what earlier rounds settled — the person's confirmation, the answers to a service's questions (questions.ts).
 */
export interface AskedCall {
  tool: string;
  args: string;
  account: string;
  key: string;
  confirmed?: boolean;
  answers?: Record<string, unknown>;
}

/** The id of the one question in `inputRequests` (and so of its answer in `inputResponses`). */
const questionId = "confirm";
/** How long a person has to answer before the question must be asked again. */
const answerWindowSeconds = 600;

const requestedSchema = {
  type: "object" as const,
  properties: { confirm: { type: "boolean" as const, title: "Confirm", description: "Yes, go ahead." } },
  required: ["confirm"],
};

type Asked = { ask: InputRequiredResult } | { run: Record<string, unknown> | undefined; confirmed?: true } | { refused: ErrorBody };

export class Confirmations {
  readonly #codec: RequestStateCodec<AskedCall>;

  /** `secret` is the gateway's shared secret (the key pepper), which every replica holds. */
  constructor(secret: string) {
    const key = Buffer.from(hkdfSync("sha256", secret, "bancada", "mcp request state", 32));
    this.#codec = createRequestStateCodec<AskedCall>({ key, ttlSeconds: answerWindowSeconds });
  }

  /** The SDK's `requestState.verify` hook: a state that fails its seal or is out of time is refused (-32602). */
  readonly verify = (state: string, ctx: ServerContext): Promise<AskedCall> => this.#codec.verify(state, ctx);

  /** Seals the state of a call that asks (any replica verifies it). */
  readonly mint = (call: AskedCall): Promise<string> => this.#codec.mint(call);

  /** Whether a call may need the person's word, so that the fast path leaves it to the SDK (which asks). */
  static asksFor(catalog: Catalog, tool: string, args: Record<string, unknown> | undefined): boolean {
    const confirmation = catalog.tool(tool)?.descriptor.confirmation;
    return confirmation !== undefined && !explicitlyConfirmed(confirmation, args);
  }

  /**
   * What to do with a tools/call: ask the person, run it (with the arguments an acceptance gives), or answer that
   * it was refused. `clientCanAsk` is what the client declared for this request (its era's way).
   */
  async decide(
    catalog: Catalog,
    caller: Caller,
    tool: string,
    args: Record<string, unknown> | undefined,
    ctx: ServerContext,
    clientCanAsk: boolean,
  ): Promise<Asked> {
    const descriptor = catalog.tool(tool)?.descriptor;
    const confirmation = descriptor?.confirmation;
    if (!descriptor || !confirmation || explicitlyConfirmed(confirmation, args)) return { run: args };
    // a call the key may not make is refused as it always is, without bothering the person
    if (!authorize(descriptor, caller.principal, caller.transport).allowed) return { run: args };

    const asked = ctx.mcpReq.requestState<AskedCall>();
    const call = askedCall(tool, args, caller);
    if (asked !== undefined) {
      if (typeof asked !== "object" || !sameCall(asked, call)) return { refused: foreignAnswer(tool) };
      // accepted in an earlier round; this round answers the service's own questions
      if (asked.confirmed) return { run: accepted(confirmation, args), confirmed: true };
      const answer = inputResponse(ctx.mcpReq.inputResponses, questionId);
      if (answer.kind === "elicit") {
        if (answer.action === "accept" && answer.content?.confirm === true) return { run: accepted(confirmation, args), confirmed: true };
        return { refused: notDone(tool, answer.action === "accept" ? "decline" : answer.action) };
      }
      // no usable answer came back with the state: ask again
    } else if (!clientCanAsk) {
      return { run: args };
    }
    return {
      ask: inputRequired({
        inputRequests: { [questionId]: inputRequired.elicit({ message: questionFor(confirmation, args), requestedSchema }) },
        requestState: await this.#codec.mint(call),
      }),
    };
  }
}

/** Whether the client can put a form question to its person: on 2026-07-28 per request, on 2025 at initialize. */
export function clientCanAsk(ctx: ServerContext, declaredAtInitialize: ClientCapabilities | undefined): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const perRequest = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  return formElicitation((perRequest ?? declaredAtInitialize)?.elicitation);
}

/** `elicitation: {}` means form mode (the 2025-06-18 shape); otherwise `form` must be there. */
function formElicitation(elicitation: unknown): boolean {
  if (typeof elicitation !== "object" || elicitation === null) return false;
  const modes = elicitation as Record<string, unknown>;
  return Object.keys(modes).length === 0 || modes.form !== undefined;
}

function explicitlyConfirmed(confirmation: ToolConfirmation, args: Record<string, unknown> | undefined): boolean {
  return confirmation.argument !== undefined && args?.[confirmation.argument] === true;
}

function accepted(confirmation: ToolConfirmation, args: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return confirmation.argument === undefined ? args : { ...args, [confirmation.argument]: true };
}

/** The question, with `{name}` replaced by the call's argument (shown as given; an absent one stays as written). */
function questionFor(confirmation: ToolConfirmation, args: Record<string, unknown> | undefined): string {
  return confirmation.message.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = args?.[name];
    return typeof value === "string" || typeof value === "number" ? String(value) : whole;
  });
}

/** The call a sealed state is bound to: the tool (or `prompt:<name>`), its arguments' digest, the account and key. */
export function askedCall(tool: string, args: Record<string, unknown> | undefined, caller: Caller): AskedCall {
  return { tool, args: digest(args), account: caller.principal.accountId, key: caller.principal.keyId };
}

function digest(args: Record<string, unknown> | undefined): string {
  return createHash("sha256")
    .update(JSON.stringify(args ?? {}))
    .digest("base64url");
}

export function sameCall(a: AskedCall, b: AskedCall): boolean {
  return a.tool === b.tool && a.args === b.args && a.account === b.account && a.key === b.key;
}

function notDone(tool: string, action: "decline" | "cancel"): ErrorBody {
  const what = action === "decline" ? "declined" : "cancelled";
  return new DomainError(ErrorCode.failedPrecondition, `Nothing was done: the person ${what} ${tool}. Ask them before trying again.`, {
    confirmation: what,
  }).toBody();
}

export function foreignAnswer(tool: string): ErrorBody {
  return new DomainError(
    ErrorCode.invalidArgument,
    `This answer was given for another call, not this ${tool}: call it again without requestState to be asked anew.`,
  ).toBody();
}
