/** What every tool that answers boxes shows of each: its row, this month's cost so far and the SSH command (of its node). */
import type { BoxRow } from "../db/client.js";
import { toBoxView } from "./box-view.js";
import type { BoxesRuntime } from "./context.js";
import type { BoxView } from "./schemas/box.js";
import { sshCommandOf, sshEndpoints } from "./ssh/ssh-command.js";
import { costsThisMonth } from "./usage/get-usage.js";

export async function boxAnswers(rt: BoxesRuntime, rows: BoxRow[]): Promise<BoxView[]> {
  const costs = new Map<string, number>();
  for (const accountId of new Set(rows.map((row) => row.accountId))) {
    const ids = rows.filter((row) => row.accountId === accountId).map((row) => row.id);
    for (const [id, centavos] of await costsThisMonth(rt, accountId, ids)) costs.set(id, centavos);
  }
  const ssh = await sshEndpoints(rt, rows);
  return rows.map((row) => ({ ...toBoxView(row), costCentavos: costs.get(row.id)!, sshCommand: sshCommandOf(ssh, row) }));
}

export async function boxAnswer(rt: BoxesRuntime, row: BoxRow): Promise<BoxView> {
  return (await boxAnswers(rt, [row]))[0]!;
}
