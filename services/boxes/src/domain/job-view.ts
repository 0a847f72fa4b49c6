import type { JobRow } from "../db/client.js";
import type { JobView } from "./schemas/exec.js";

export type JobCommand = { cmd: string } | { argv: string[] };

export function toJobView(row: JobRow): JobView {
  const command = row.command as JobCommand;
  return {
    id: row.id,
    boxId: row.boxId,
    name: row.name,
    cmd: "cmd" in command ? command.cmd : null,
    argv: "argv" in command ? command.argv : null,
    cwd: row.cwd,
    envNames: row.envNames,
    status: row.status,
    exitCode: row.exitCode,
    signal: row.signal,
    oomKilled: row.oomKilled,
    statusReason: row.statusReason,
    startedAt: row.createdAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}
