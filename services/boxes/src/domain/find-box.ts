/** Finds a box of the caller's account by id (deleted ones too) or by name (live boxes only). */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxRow } from "../db/client.js";
import type { BoxesContext } from "./context.js";

export async function findBox(ctx: BoxesContext, ref: string): Promise<BoxRow> {
  const row = ref.startsWith("bx_")
    ? await ctx.db.box.findFirst({ where: { id: ref, accountId: ctx.accountId } })
    : await ctx.db.box.findFirst({ where: { liveName: ref, accountId: ctx.accountId } });
  if (!row) throw new DomainError(ErrorCode.notFound, `No box ${ref} in this workspace.`, { boxId: ref });
  return row;
}

export const boxHandle = (row: Pick<BoxRow, "id" | "runtime">) => ({ id: row.id, runtime: row.runtime });

/** What the driver needs to make or start the box (a box made before boxes had host users has uid 0: the driver refuses it). */
export const boxSpec = (row: BoxRow) => ({
  id: row.id,
  name: row.name,
  runtime: null,
  vcpus: row.vcpus,
  memMiB: row.memMiB,
  dataGiB: row.dataGiB,
  hostUid: row.hostUid ?? 0,
});
