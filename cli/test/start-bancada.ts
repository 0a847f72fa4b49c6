/** `bancada start` as a child process, for the tests that run the command as a user would. */
import { spawn } from "node:child_process";
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
  const child = spawn(process.execPath, [launcher, "start"], { env: { LOG_LEVEL: "warn", ...env } });
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
