import { toBoxView } from "./box-view.js";
import type { BoxesContext } from "./context.js";
import { findBox } from "./find-box.js";
import type { BoxView } from "./schemas/box.js";

/** get_box: the box with its state and reason, size, idle policies and the operation in progress. */
export async function getBox(ctx: BoxesContext, ref: string): Promise<BoxView> {
  return toBoxView(await findBox(ctx, ref));
}
