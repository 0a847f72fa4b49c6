import type { BoxRow } from "../../db/client.js";
import type { BoxesRuntime } from "../context.js";

/** Where the SSH endpoint listens (ssh/ssh-server.ts); port null: no SSH on this service. */
export interface SshSettings {
  port: number | null;
  host: string;
  /** Why the endpoint is not listening when it was asked for (the listen or host-key error, in one line). */
  failure?: string;
}

/** get_box's `sshCommand`: the command that opens a shell in the box, with a key registered at /v1/ssh-keys. */
export function sshCommandOf(rt: BoxesRuntime, row: Pick<BoxRow, "id" | "state">): string | null {
  if (rt.ssh.port === null || row.state === "deleted" || row.state === "deleting") return null;
  return `ssh -p ${rt.ssh.port} ${row.id}@${rt.ssh.host}`;
}
