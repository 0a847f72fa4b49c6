/**
 * What every connection to a published port checks before it reaches the box: the port is still published, its
 * box still exists (a deleted box's ports are unpublished on the spot) and runs — a sleeping box is woken, as
 * exec would wake it; a suspended or stopped one is refused with what to do.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxRow } from "../../db/client.js";
import { awakeBox } from "../awake.js";
import type { BoxesRuntime } from "../context.js";
import type { BoxPortRow } from "./port-listeners.js";

export async function publishedPort(rt: BoxesRuntime, portId: string): Promise<BoxPortRow> {
  const row = await rt.db.boxPort.findUnique({ where: { id: portId } });
  if (!row) throw new DomainError(ErrorCode.notFound, "This port is no longer published.");
  return row;
}

export async function portBox(rt: BoxesRuntime, row: BoxPortRow): Promise<BoxRow> {
  const box = await rt.db.box.findUnique({ where: { id: row.boxId } });
  if (!box || box.state === "deleted" || box.state === "deleting") {
    await rt.db.boxPort.deleteMany({ where: { id: row.id } });
    void rt.ports.close(row.id);
    throw new DomainError(ErrorCode.notFound, `Box ${row.boxId} was deleted; its ports are unpublished.`);
  }
  return awakeBox({ ...rt, accountId: box.accountId, personId: box.createdBy, agentId: "published-port" }, box.id, "a published port");
}
