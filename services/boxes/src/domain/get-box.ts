import type { BoxesContext } from "./context.js";
import { findBox } from "./find-box.js";
import type { BoxView } from "./schemas/box.js";
import { boxAnswer } from "./box-answer.js";

/** get_box: the box with its state and reason, size, idle policies, the operation in progress and this month's cost. */
export async function getBox(ctx: BoxesContext, ref: string): Promise<BoxView> {
  const row = await findBox(ctx, ref);
  return boxAnswer(ctx, row);
}
