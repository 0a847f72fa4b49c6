import { toBoxView } from "./box-view.js";
import type { BoxesContext } from "./context.js";
import { findBox } from "./find-box.js";
import type { BoxView } from "./schemas/box.js";
import { costsThisMonth } from "./usage/get-usage.js";
import { sshCommandOf } from "./ssh/ssh-command.js";

/** get_box: the box with its state and reason, size, idle policies, the operation in progress and this month's cost. */
export async function getBox(ctx: BoxesContext, ref: string): Promise<BoxView> {
  const row = await findBox(ctx, ref);
  const costs = await costsThisMonth(ctx, ctx.accountId, [row.id]);
  return { ...toBoxView(row), costCentavos: costs.get(row.id)!, sshCommand: sshCommandOf(ctx, row) };
}
