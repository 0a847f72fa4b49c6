/** Reading boards with their four quadrants (customised or default) and the caller's role. */
import type { BoardsTx } from "../db/client.js";
import { boardNotFound } from "./errors.js";
import { defaultQuadrants, matrixQuadrants, type QuadrantId } from "./quadrants.js";
import { optionalTimestamp, timestamp } from "./time.js";
import type { BoardRecord, BoardRole, QuadrantView } from "./views.js";

interface BoardRow {
  id: string;
  name: string;
  description: string | null;
  archived_at: Date | null;
  created_at: Date;
  version: number;
  role: BoardRole;
}

interface QuadrantRow {
  board_id: string;
  quadrant: QuadrantId;
  title: string;
  subtitle: string;
  color: string;
}

/** Every board the caller reaches (RLS decides), by name. Optionally just one. */
export async function readBoards(tx: BoardsTx, onlyId?: string): Promise<BoardRecord[]> {
  const rows = await tx.$queryRaw<BoardRow[]>`
    SELECT b.id::text, b.name, b.description, b.archived_at, b.created_at, b.version, m.role::text AS role
      FROM boards b
      JOIN board_members m ON m.account_id = b.account_id AND m.board_id = b.id AND m.person_id = current_setting('app.person_id', true)
     WHERE b.account_id = current_setting('app.account_id', true)
       AND (${onlyId ?? null}::uuid IS NULL OR b.id = ${onlyId ?? null}::uuid)
     ORDER BY lower(b.name), b.id`;
  if (rows.length === 0) return [];
  const settings = await tx.$queryRaw<QuadrantRow[]>`
    SELECT board_id::text, quadrant::text AS quadrant, title, subtitle, color
      FROM board_quadrants WHERE board_id = ANY(${rows.map((row) => row.id)}::uuid[])`;
  return rows.map((row) =>
    toBoardRecord(
      row,
      settings.filter((setting) => setting.board_id === row.id),
    ),
  );
}

export async function readBoard(tx: BoardsTx, boardId: string): Promise<BoardRecord> {
  const [board] = await readBoards(tx, boardId);
  if (!board) throw boardNotFound();
  return board;
}

function toBoardRecord(row: BoardRow, settings: QuadrantRow[]): BoardRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    archived_at: optionalTimestamp(row.archived_at),
    created_at: timestamp(row.created_at),
    quadrants: matrixQuadrants.map((id): QuadrantView => {
      const custom = settings.find((setting) => setting.quadrant === id);
      const look = custom ?? defaultQuadrants[id];
      return { id, title: look.title, subtitle: look.subtitle, color: look.color, customized: custom !== undefined };
    }),
    role: row.role,
    version: row.version,
  };
}
