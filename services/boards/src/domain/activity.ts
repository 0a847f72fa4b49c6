/**
 * Activity events: every change writes one, in the change's own transaction, as the acting person.
 * clock_timestamp() (not now()) keeps two events of one transaction in the order they happened.
 */
import { randomUUID } from "node:crypto";
import type { BoardsTx } from "../db/client.js";
import type { BoardsContext } from "./context.js";

type EntityType = "board" | "task" | "tag" | "member" | "proposal";

export interface ActivityEntry {
  boardId: string;
  eventType: string;
  entityType: EntityType;
  entityId: string;
  metadata?: Record<string, unknown>;
}

export async function recordEvent(tx: BoardsTx, ctx: BoardsContext, entry: ActivityEntry): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO activity_events (account_id, id, board_id, actor_id, event_type, entity_type, entity_id, metadata, created_at)
    VALUES (${ctx.accountId}, ${randomUUID()}::uuid, ${entry.boardId}::uuid, ${ctx.personId}, ${entry.eventType}, ${entry.entityType},
            ${entry.entityId}, ${JSON.stringify(entry.metadata ?? {})}::jsonb, clock_timestamp())`;
}
