import { matrix, type Board } from "./boards-types";
import { t } from "./i18n";

/**
 * A quadrant's title as the board names it: a title the board's owners customised stays as written; a default one
 * is shown in the interface's language (the boards service stores the defaults in Portuguese).
 */
export function quadrantTitle(board: Pick<Board, "quadrants">, id: string): string {
  if (id === "backlog") return t("board.backlog");
  const quadrant = board.quadrants.find((candidate) => candidate.id === id);
  if (quadrant?.customized) return quadrant.title;
  return isMatrixQuadrant(id) ? t(`quadrant.default.${id}`) : (quadrant?.title ?? id);
}

/** The subtitle, by the same rule as the title. */
export function quadrantSubtitle(board: Pick<Board, "quadrants">, id: string): string {
  const quadrant = board.quadrants.find((candidate) => candidate.id === id);
  if (quadrant?.customized) return quadrant.subtitle;
  return isMatrixQuadrant(id) ? t(`quadrant.defaultSubtitle.${id}`) : (quadrant?.subtitle ?? "");
}

function isMatrixQuadrant(id: string): id is (typeof matrix)[number] {
  return (matrix as readonly string[]).includes(id);
}
