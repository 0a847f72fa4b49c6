/**
 * exec: one command in a running box, to completion or its deadline (1–600 s). stdout and stderr
 * are each kept up to 1 MB and marked when cut; at the deadline the command's whole process tree is
 * killed. A caller that goes away cancels the command the same way. Long calls report progress
 * every 5 s, so that clients which reset their timeout on progress keep waiting.
 */
import { DomainError, ErrorCode, type ProgressUpdate } from "@bancada/contracts";
import type { BoxRow } from "../db/client.js";
import type { ExecOutcome } from "../driver/box-driver.js";
import { activityIsStale, awakeBox, recordActivity, stillRunning } from "./awake.js";
import type { BoxesContext } from "./context.js";
import { driverFailure } from "./driver-errors.js";
import { boxHandle } from "./find-box.js";
import { limits } from "./limits.js";
import { secretEnv } from "./secrets/secrets.js";
import { suspendedUnder, unlessSuspended, type Freeze } from "./suspensions.js";
import { decodePayload } from "./payload.js";
import { inBoxPath } from "./schemas/common.js";
import type { ExecInput, ExecResult } from "./schemas/exec.js";
import { oomReason } from "./job-status.js";
import { fitTexts, wholeCharacters } from "./text-output.js";

const progressEveryMs = 5_000;
const activityEveryMs = 60_000;

export function execCommand(
  ctx: BoxesContext,
  input: ExecInput,
  signal?: AbortSignal,
  progress?: (update: ProgressUpdate) => void,
  /** The box's row as this call's owner lookup just read it (for the caller's account), so it is not read twice. */
  found?: BoxRow,
): Promise<ExecResult> {
  return ctx.accountCalls.run(ctx.accountId, "this exec", () => runExec(ctx, input, signal, progress, found));
}

async function runExec(
  ctx: BoxesContext,
  input: ExecInput,
  signal: AbortSignal | undefined,
  progress: ((update: ProgressUpdate) => void) | undefined,
  found: BoxRow | undefined,
): Promise<ExecResult> {
  const stdin = input.stdin === undefined ? undefined : decodePayload(input.stdin, input.stdinEncoding, "stdin", limits.stdinBytes);
  const box = await awakeBox(ctx, input.boxId, "exec", found);
  // The call's own env wins over a secret of the same name: it is what this caller asked for.
  const env = { ...(await secretEnv(ctx, box)), ...input.env };
  const started = Date.now();
  const ticker = progress
    ? setInterval(
        () => progress({ progress: Math.round((Date.now() - started) / 1000), total: input.timeoutSeconds, message: "command running" }),
        progressEveryMs,
      )
    : undefined;
  // A command running longer than autoSuspendSeconds is activity all along: recorded every minute and at its end.
  // A box no longer running by then was frozen meanwhile, and the news of it missed this replica (suspensions.ts).
  const active = setInterval(
    () =>
      void stillRunning(ctx, box.id).then(
        (running) =>
          running || ctx.suspensions.announceHere(box.id, { state: "suspended", reason: "it is no longer running; get_box says why" }),
      ),
    activityEveryMs,
  );
  ctx.inFlight.exec++;
  let outcome: ExecOutcome;
  try {
    const interrupted = (freeze: Freeze) => suspendedUnder(box, "the command", freeze, "the command and everything it started were killed");
    outcome = await unlessSuspended(ctx, box, interrupted, (suspended) =>
      ctx.driver.exec(boxHandle(box), {
        command: input.cmd !== undefined ? { cmd: input.cmd } : { argv: input.argv ?? [] },
        cwd: inBoxPath(input.cwd ?? "/data/home"),
        env,
        timeoutMs: input.timeoutSeconds * 1000,
        maxOutputBytes: limits.streamBytes,
        ...(stdin ? { stdin } : {}),
        signal: signal ? AbortSignal.any([signal, suspended]) : suspended,
      }),
    );
  } catch (error) {
    // Awaited here, before the finally block's own await, so its rejection is never left unhandled meanwhile.
    return await driverFailure(ctx, box, error);
  } finally {
    clearInterval(ticker);
    clearInterval(active);
    ctx.inFlight.exec--;
    // The end counts as activity too; a short command ends within the resolution of the write made before it.
    if (activityIsStale(box)) await recordActivity(ctx, box.id);
  }
  if (outcome.cancelled) {
    throw new DomainError(ErrorCode.deadlineExceeded, "The call was cancelled; the command and everything it started were killed.", {
      cancelled: true,
    });
  }
  return execResult(outcome, ctx.replyBudgetBytes, { memMiB: box.memMiB, timeoutSeconds: input.timeoutSeconds });
}

function execResult(outcome: ExecOutcome, replyBudgetBytes: number, box: { memMiB: number; timeoutSeconds: number }): ExecResult {
  const stdoutCut = outcome.stdoutBytes > outcome.stdout.length;
  const stderrCut = outcome.stderrBytes > outcome.stderr.length;
  const texts = [
    stdoutCut ? wholeCharacters(outcome.stdout) : outcome.stdout,
    stderrCut ? wholeCharacters(outcome.stderr) : outcome.stderr,
  ].map((data) => data.toString("utf8"));
  const fitted = fitTexts(texts, replyBudgetBytes);
  return {
    stdout: fitted.texts[0]!,
    stderr: fitted.texts[1]!,
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    timedOut: outcome.timedOut,
    oomKilled: outcome.oomKilled,
    killReason: outcome.oomKilled
      ? oomReason(box.memMiB)
      : outcome.timedOut
        ? `killed at its deadline (timeoutSeconds ${box.timeoutSeconds}) with every process it started`
        : null,
    durationMs: outcome.durationMs,
    stdoutTruncated: stdoutCut || fitted.shortened[0]!,
    stderrTruncated: stderrCut || fitted.shortened[1]!,
    stdoutBytes: outcome.stdoutBytes,
    stderrBytes: outcome.stderrBytes,
  };
}
