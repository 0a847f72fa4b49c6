/**
 * An SSH session's shell or command in a local box: entered exactly like exec (command.ts: the box's namespaces,
 * its user, every capability dropped), in /data/home. With a terminal, util-linux `script` (from the host's /usr,
 * which the box sees read-only) makes a pty inside the box — its own devpts — sized as the client asked; without
 * one, plain pipes. The caller's command and sizes travel as environment variables, never spliced into shell text.
 */
import type { ShellProcess, ShellRequest } from "../box-driver.js";
import type { InBoxSpawner } from "./box-transfers.js";

const onTerminal =
  'stty rows "$BANCADA_ROWS" cols "$BANCADA_COLS" 2>/dev/null; unset BANCADA_ROWS BANCADA_COLS; ' +
  'if [ -n "${BANCADA_CMD+x}" ]; then c=$BANCADA_CMD; unset BANCADA_CMD; exec /bin/bash -lc "$c"; fi; exec /bin/bash -l';

export async function openShell(spawnInBox: InBoxSpawner, request: ShellRequest): Promise<ShellProcess> {
  const env: Record<string, string> = { ...request.env };
  let program: string[];
  if (request.terminal) {
    Object.assign(env, {
      TERM: request.terminal.term,
      BANCADA_ROWS: String(request.terminal.rows),
      BANCADA_COLS: String(request.terminal.cols),
    });
    if (request.command !== null) env.BANCADA_CMD = request.command;
    program = ["/usr/bin/script", "-q", "-f", "-e", "-c", onTerminal, "/dev/null"];
  } else {
    program = request.command === null ? ["/bin/bash", "-l"] : ["/bin/bash", "-lc", request.command];
  }
  const { child, release } = await spawnInBox(program, ["pipe", "pipe", "pipe"], { cwd: "/data/home", env });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", () => resolve({ code: 127, signal: null }));
  }).then(async (result) => {
    await release();
    return result;
  });
  child.stdin!.on("error", () => {});
  return { stdin: child.stdin!, stdout: child.stdout!, stderr: child.stderr!, exited, kill: release };
}
