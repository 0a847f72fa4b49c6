/** `bancada` commands as child processes, for the tests that run them as a user would. */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";

export const bin = path.join(import.meta.dirname, "../bin/bancada.mjs");

export interface Started {
  url: string;
  output: () => string;
  /** SIGTERM, then the exit code. */
  stop: () => Promise<number | null>;
}

/** Starts `<launcher> start` (the bin by default) and waits for its ready line. */
export async function startBancada(env: NodeJS.ProcessEnv, launcher = bin): Promise<Started> {
  // the log goes to stderr and the banner to stdout: both into one pipe (the shell's 2>&1, then exec), so the output
  // keeps the order a terminal shows; two pipes would be read in whichever order their data arrived
  const child = spawn("/bin/sh", ["-c", 'exec "$0" "$@" 2>&1', process.execPath, launcher, "start"], {
    env: { LOG_LEVEL: "warn", ...env },
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready: ${out}`)), 150_000);
    child.once("exit", () => reject(new Error(`exited: ${out}`)));
    child.stdout.on("data", () => {
      const match = /MCP endpoint: (\S+)/.exec(out);
      if (match && out.includes("Press Ctrl-C to stop.")) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return {
    url,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", (code) => resolve(code));
        child.kill("SIGTERM");
      }),
  };
}

/** A `bancada <args>` process whose output is kept, with a wait for a line of it; killed if the test process ends first. */
export function launch(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [bin, ...args], { env });
  // never outlive the test process, even when it ends before afterAll has stopped every child
  const orphanGuard = () => child.kill("SIGKILL");
  process.once("exit", orphanGuard);
  child.once("exit", () => process.removeListener("exit", orphanGuard));
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  return {
    child,
    output: () => out,
    waitFor: (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${pattern} in: ${out}`)), 150_000);
        const check = () => {
          const match = pattern.exec(out);
          if (!match) return;
          clearTimeout(timer);
          resolve(match);
        };
        child.once("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)));
        child.stdout.on("data", check);
        child.stderr.on("data", check);
        check();
      }),
  };
}

/** SIGTERM, then the exit code (at once if the process has already ended). */
export function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
}

/** Retries `attempt` every 250 ms until it returns, or throws its last error after `withinMs`. */
export async function eventually<T>(attempt: () => T | Promise<T>, withinMs = 60_000): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
