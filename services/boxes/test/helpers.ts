/** Tool calls that check the result envelope, a REST client, polling, and OpenSSH's client options. */
import { execFileSync } from "node:child_process";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { callTool, expectToolResult, type ErrorData } from "@bancada/testkit";

export interface Box {
  id: string;
  name: string;
  state: string;
  stateReason: string | null;
  operation: { kind: string; startedAt: string } | null;
  vcpus: number;
  memMiB: number;
  dataGiB: number;
  autoSuspendSeconds: number;
  maxRunMinutes: number;
  deleteAfterSeconds: number | null;
  metadata: Record<string, string>;
  enforcement: Record<string, unknown>;
  costCentavos: number;
  sshCommand: string | null;
  [key: string]: unknown;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  oomKilled: boolean;
  killReason: string | null;
  durationMs: number;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  stdoutBytes: number;
  stderrBytes: number;
}

export interface Job {
  id: string;
  boxId: string;
  name: string | null;
  status: "running" | "succeeded" | "failed" | "killed";
  exitCode: number | null;
  signal: string | null;
  oomKilled: boolean;
  statusReason: string | null;
  envNames: string[];
  [key: string]: unknown;
}

export type ErrorBody = ErrorData["error"];

/** A tool call with a longer client timeout than the SDK's 60 s default where a test needs it. */
export const call = <T>(client: Client, name: string, args: Record<string, unknown>, timeoutMs = 60_000) =>
  callTool<T>(client, name, args, { timeoutMs });

/** Calls a tool that must succeed (testkit's check of the result envelope). */
export const ok = <T = { box: Box }>(client: Client, tool: string, args: Record<string, unknown>, timeoutMs = 60_000): Promise<T> =>
  expectToolResult<T>(client, tool, args, { timeoutMs });
export { expectToolError as fails, issuePaths } from "@bancada/testkit";

export const run = (client: Client, boxId: string, cmd: string, extra: Record<string, unknown> = {}) =>
  ok<ExecResult>(client, "exec", { boxId, cmd, ...extra }, 120_000);

export async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface RestResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
}

export function restClient(baseUrl: string, key: string | undefined) {
  return async <T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<RestResponse<T>> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as T) : ({} as T) };
  };
}

export const allScopes = ["boxes:read", "boxes:write", "boxes:delete", "boxes:exec"];

/** Whether OpenSSH's client is installed (apt-get install openssh-client): the SSH tests say they are skipped without it. */
export const hasSsh = (() => {
  try {
    execFileSync("ssh", ["-V"], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
})();

/** OpenSSH's options for a test: no config file, this identity only, no prompt, the test's own known_hosts. */
export function sshOptions(identity: string, knownHosts: string): string[] {
  return [
    "-F",
    "/dev/null",
    "-i",
    identity,
    "-o",
    "IdentitiesOnly=yes",
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    `UserKnownHostsFile=${knownHosts}`,
    "-o",
    "BatchMode=yes",
    "-o",
    "ConnectTimeout=20",
  ];
}
