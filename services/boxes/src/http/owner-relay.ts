/**
 * REST requests for a box run on the node that holds it, whichever replica they enter (docs/boxes.md, "More than
 * one node"). A REST route runs one operation — the handler of the tool it mirrors, or its own — and this relay
 * decides where: it authorizes the caller and parses the input where the request entered (so bad input and a
 * missing scope are answered there), looks up the owner with the tool's own `owner` (the caller's account only:
 * another account's box has none, so it is `not_found` there and nothing leaves), and runs the operation there
 * or sends it on the owner's node subject `<root>.boxes.node.<node>.rest`, tagged with the boxes service's bus key
 * (the key every call to the service is checked with: bus-signature.ts, no second scheme). The owner checks the tag
 * and runs each call id once, authorizes the principal again, runs the same handler and sends back its result or
 * error, tagged for that request; the entering replica takes no answer without the tag and answers it as its own:
 * the same status, body and errors as on the owner.
 *
 * Why not an HTTP proxy: one implementation — the tools' owner lookup, their failure answers (`unavailable`
 * naming the node within milliseconds when nothing serves it, service-kit owner-route.ts) and the bus's
 * liveness (a dead owner is noticed within seconds) — and no address per replica to configure. Streams do not
 * cross: transfer URLs are minted by the owner with its own public URL (their REST mirrors are relayed too).
 *
 * Deadlines: the owner stops the work at the operation's longest duration (the tool's `maxDurationMs`) and the
 * entering replica waits a little longer, so the owner's own answer arrives. A client that goes away cancels the
 * work on the owner as it would here (`….node.<node>.cancel`, heard by every replica of that node).
 */
import { randomUUID } from "node:crypto";
import type { Request, Response } from "express";
import { z } from "zod";
import {
  DomainError,
  ErrorCode,
  Header,
  authorize,
  principalSchema,
  type Access,
  type CallReply,
  type Principal,
  type Subjects,
} from "@bancada/contracts";
import {
  BusFailure,
  BusRequestError,
  ReplayGuard,
  authorizedPrincipal,
  checkBusSignature,
  checkReply,
  decodeJson,
  encodeJson,
  ownerUnreachable,
  signBusMessage,
  signReply,
  toErrorBody,
  type Bus,
  type BusMessage,
  type BusSubscription,
  type Tool,
  type ToolContext,
  type ToolOwner,
} from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";

/** What a REST route runs, and where it must run. */
export interface BoxOperation {
  /** The name it crosses the bus by: the tool's own, or the route's. */
  name: string;
  access: Access;
  input: z.ZodType;
  /** The node that must run it for this caller (the caller's box's, or its snapshot's), or null: anywhere. */
  owner: (principal: Principal, input: never) => Promise<ToolOwner | null>;
  maxDurationMs: number;
  handler: (ctx: ToolContext, input: never) => Promise<unknown>;
}

/** A tool's handler as a REST operation: its input, access, owner and longest duration. */
export function toolOperation(tool: Tool): BoxOperation {
  return {
    name: tool.name,
    access: tool,
    input: tool.input,
    owner: tool.owner ?? (async () => null),
    maxDurationMs: tool.maxDurationMs,
    handler: tool.handler,
  };
}

/** A route's own operation (no tool stands behind it), typed by its input schema. */
export function routeOperation<S extends z.ZodType>(op: {
  name: string;
  access: Access;
  input: S;
  owner: (principal: Principal, input: z.output<S>) => Promise<ToolOwner | null>;
  maxDurationMs: number;
  handler: (ctx: ToolContext, input: z.output<S>) => Promise<unknown>;
}): BoxOperation {
  return op as unknown as BoxOperation;
}

export interface OwnerRelay {
  /** Makes `op` runnable here for other replicas; every operation a route runs is served so. */
  serve(op: BoxOperation): BoxOperation;
  /** Runs `op` for the request's caller, here or on its owner's node; the result, or the owner's error thrown. */
  run(req: Request, res: Response, op: BoxOperation, raw: Record<string, unknown>): Promise<unknown>;
  /** Stops taking relayed requests; running ones finish. */
  stop(): void;
}

/** How much longer than the owner's deadline the entering replica waits for its answer. */
const answerGraceMs = 5_000;
const relayBody = z.object({ operation: z.string(), input: z.record(z.string(), z.unknown()) });

export function ownerRelay(rt: BoxesRuntime, bus: Bus, subjects: Subjects): OwnerRelay {
  const node = rt.driver.node;
  const key = bus.keys.for("boxes");
  const operations = new Map<string, BoxOperation>();
  const running = new Map<string, AbortController>();
  const replays = new ReplayGuard();
  const here = { rest: subjects.nodeRest("boxes", node), cancel: subjects.nodeRestCancel("boxes", node) };

  /** The same handler the tool runs, for `principal`, once it is authorized again and the input parsed. */
  async function runHere(principal: Principal, op: BoxOperation, raw: unknown, callId: string, signal: AbortSignal) {
    // authorized again whatever the entering replica did (defence in depth, as the tool host does)
    const verdict = authorize(op.access, principal, "rest");
    if (!verdict.allowed) throw verdict.error;
    return execute(principal, op, op.input.parse(raw), callId, signal);
  }

  function execute(
    principal: Principal,
    op: BoxOperation,
    input: unknown,
    callId: string,
    signal: AbortSignal,
    owner?: ToolOwner,
  ): Promise<unknown> {
    const ctx: ToolContext = {
      principal,
      callId,
      transport: "http",
      signal,
      log: rt.log.child({ callId }),
      progress: () => {},
      ...(owner ? { owner } : {}),
    };
    return op.handler(ctx, input as never);
  }

  async function relayed(principal: Principal, op: BoxOperation, raw: Record<string, unknown>, owner: ToolOwner, signal: AbortSignal) {
    const callId = randomUUID();
    const deadline = Date.now() + op.maxDurationMs;
    const subject = subjects.nodeRest("boxes", owner.node);
    const data = encodeJson({ operation: op.name, input: raw });
    const fields = { [Header.principal]: JSON.stringify(principal), [Header.callId]: callId, [Header.deadline]: String(deadline) };
    const cancel = () => {
      const cancelData = encodeJson({ callId });
      const cancelSubject = subjects.nodeRestCancel("boxes", owner.node);
      bus.publish(cancelSubject, cancelData, signBusMessage(key, cancelSubject, fields, cancelData, { notAfter: deadline }));
    };
    signal.addEventListener("abort", cancel, { once: true });
    const started = performance.now();
    try {
      const headers = signBusMessage(key, subject, fields, data, { notAfter: deadline });
      const reply = await bus.request(subject, data, { timeoutMs: deadline - Date.now() + answerGraceMs, headers, signal });
      const problem = checkReply(key, subject, { data, headers }, reply);
      if (problem) throw unverifiedAnswer(owner.node, problem);
      const answer = decodeJson(reply.data) as CallReply;
      if (!answer.ok) throw new DomainError(answer.error.code, answer.error.message, answer.error.details);
      return answer.result;
    } catch (error) {
      if (error instanceof DomainError) throw error;
      if (error instanceof BusRequestError && error.reason === BusFailure.timeout) cancel();
      throw ownerUnreachable(error, { ...owner, service: "boxes" });
    } finally {
      signal.removeEventListener("abort", cancel);
      rt.log.debug(
        { callId, operation: op.name, node: owner.node, owned: owner.what, ms: Math.round(performance.now() - started) },
        "relayed a REST request to its owner's node",
      );
    }
  }

  /** A relayed request, answered as a tool call is: `{ ok, result }` or `{ ok: false, error }`. */
  async function answer(message: BusMessage): Promise<BusMessage> {
    const callId = message.headers[Header.callId] ?? "";
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    try {
      const problem = checkBusSignature(key, here.rest, message);
      const replayed = !problem && !replays.firstSighting(callId, Number(message.headers[Header.expires]));
      if (problem || replayed) throw refusedRelay(problem ?? "replayed");
      const principal = principalSchema.parse(JSON.parse(message.headers[Header.principal] ?? "null"));
      const body = relayBody.parse(decodeJson(message.data));
      const op = operations.get(body.operation);
      if (!op)
        throw new DomainError(ErrorCode.notFound, `This boxes replica serves no REST operation '${body.operation}' (an older version?).`);
      running.set(callId, controller);
      timer = setTimeout(() => controller.abort(), Math.max(0, Number(message.headers[Header.deadline]) - Date.now()));
      const result = await runHere(principal, op, body.input, callId, controller.signal);
      return reply(message, { ok: true, result });
    } catch (error) {
      return reply(message, { ok: false, error: toErrorBody(error, rt.log, callId) });
    } finally {
      clearTimeout(timer);
      running.delete(callId);
    }
  }

  function refusedRelay(problem: string): DomainError {
    rt.log.warn({ subject: here.rest, reason: problem }, "refused a relayed REST request");
    return new DomainError(
      ErrorCode.unavailable,
      `Node ${node} refused a REST request relayed by another boxes replica (${problem}): every replica needs the boxes bus key (BANCADA_BUS_VERIFY_KEY) and a clock within seconds of the others.`,
      { node, reason: problem },
    );
  }

  /** The answer to a relayed request, tagged for it: the entering replica takes no other. */
  function reply(request: BusMessage, answer: CallReply): BusMessage {
    const data = encodeJson(answer);
    return { data, headers: signReply(key, here.rest, request, data) };
  }

  function unverifiedAnswer(owner: string, problem: string): DomainError {
    rt.log.warn({ node: owner, reason: problem }, "refused an answer to a relayed REST request not tagged by the service");
    return new DomainError(
      ErrorCode.unavailable,
      `Node ${owner} answered a relayed REST request without the boxes service's tag (${problem}); retry, and check that every boxes replica has the same bus key.`,
      { node: owner, reason: problem, retryable: true },
    );
  }

  const subscriptions: BusSubscription[] = [
    bus.serve(here.rest, answer, { queue: subjects.queue("boxes") }),
    bus.subscribe(here.cancel, (message) => {
      const callId = message.headers[Header.callId] ?? "";
      // a forged cancellation would stop another caller's work; a repeat of a genuine one changes nothing
      if (running.has(callId) && !checkBusSignature(key, here.cancel, message)) running.get(callId)?.abort();
    }),
  ];

  return {
    serve(op) {
      operations.set(op.name, op);
      return op;
    },
    async run(req, res, op, raw) {
      const principal = authorizedPrincipal(req, op.access);
      const input: unknown = op.input.parse(raw);
      const owner = await op.owner(principal, input as never);
      const signal = cancelledWith(res);
      if (!owner || owner.node === node) return execute(principal, op, input, randomUUID(), signal, owner ?? undefined);
      return relayed(principal, op, raw, owner, signal);
    },
    stop: () => subscriptions.forEach((subscription) => subscription.unsubscribe()),
  };
}

/** Aborted when the client goes away before the answer is sent. */
function cancelledWith(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
