import type { Board } from "./boards-types";
import { t } from "./i18n";

/** A quadrant's title as the board names it (customized or not); the backlog is not a quadrant of the board. */
export function quadrantTitle(board: Board, id: string): string {
  if (id === "backlog") return t("board.backlog");
  return board.quadrants.find((quadrant) => quadrant.id === id)?.title ?? id;
}
