/**
 * publish_port and its REST siblings (list, unpublish). A published port is one row per box port, served by the
 * proxy on a host port of the box's node; publishing the same box port again changes its protocol and
 * visibility in place (same URL) and, for a private port, makes a new access token (the old one stops working).
 */
import { randomInt } from "node:crypto";
import { DomainError, ErrorCode } from "@bancada/contracts";
import { Prisma } from "../../db/generated/client.js";
import type { BoxesContext, BoxesRuntime } from "../context.js";
import { findBox, boxHandle } from "../find-box.js";
import type { PortView, PublishPortInput, PublishPortResult } from "../schemas/port.js";
import type { BoxPortRow } from "./port-listeners.js";
import { newPortToken, portTokenHash } from "./port-token.js";

export async function publishPort(ctx: BoxesContext, input: PublishPortInput): Promise<PublishPortResult> {
  const box = await findBox(ctx, input.boxId);
  if (box.state === "deleted" || box.state === "deleting")
    throw new DomainError(ErrorCode.failedPrecondition, `Box ${box.id} is ${box.state}; it has no ports to publish.`, { boxId: box.id });
  const token = input.visibility === "private" ? newPortToken() : null;
  const settings = { protocol: input.protocol, visibility: input.visibility, tokenHash: token ? portTokenHash(token) : null };
  const existing = await ctx.db.boxPort.findUnique({ where: { boxId_port: { boxId: box.id, port: input.port } } });
  let row: BoxPortRow;
  if (existing) {
    row = await ctx.db.boxPort.update({ where: { id: existing.id }, data: { ...settings, updatedAt: new Date() } });
    // A protocol change needs another kind of listener: the port is served anew on the same host port.
    await ctx.ports.close(row.id);
    if (!(await ctx.ports.listen(row)))
      throw new DomainError(
        ErrorCode.unavailable,
        `Host port ${row.hostPort} is taken on this machine; unpublish the port and publish it again.`,
      );
  } else {
    row = await allocate(ctx, { id: newPortId(), accountId: ctx.accountId, boxId: box.id, port: input.port, ...settings });
  }
  return { port: portView(ctx, row), accessToken: token, usage: usage(ctx, row, token) };
}

export async function listPorts(ctx: BoxesContext, boxRef: string): Promise<PortView[]> {
  const box = await findBox(ctx, boxRef);
  const rows = await ctx.db.boxPort.findMany({ where: { boxId: box.id, accountId: ctx.accountId }, orderBy: { port: "asc" } });
  return rows.map((row) => portView(ctx, row));
}

export async function unpublishPort(ctx: BoxesContext, input: { boxId: string; port: number }): Promise<{ unpublished: PortView }> {
  const box = await findBox(ctx, input.boxId);
  const row = await ctx.db.boxPort.findFirst({ where: { boxId: box.id, accountId: ctx.accountId, port: input.port } });
  if (!row) throw new DomainError(ErrorCode.notFound, `Port ${input.port} of box ${box.id} is not published.`, { port: input.port });
  await ctx.db.boxPort.delete({ where: { id: row.id } });
  await ctx.ports.close(row.id);
  await ctx.driver.closePorts(boxHandle(box), row.port).catch(() => {});
  return { unpublished: portView(ctx, row) };
}

/**
 * The ports of deleted boxes are unpublished (whatever deleted them: delete_box, the reaper, another replica), each
 * by its own node, whose proxy serves it.
 */
export async function unpublishDeletedBoxes(rt: BoxesRuntime): Promise<string[]> {
  const rows = await rt.db.$queryRaw<{ id: string }[]>`
    DELETE FROM box_ports p USING boxes b
     WHERE b.id = p.box_id AND b.state IN ('deleting', 'deleted') AND p.node = ${rt.driver.node} RETURNING p.id`;
  for (const row of rows) await rt.ports.close(row.id);
  return rows.map((row) => row.id);
}

/** At start: every port published on this node is served again. */
export async function servePublishedPorts(rt: BoxesRuntime): Promise<void> {
  await unpublishDeletedBoxes(rt);
  for (const row of await rt.db.boxPort.findMany({ where: { node: rt.driver.node } }))
    if (!(await rt.ports.listen(row)))
      rt.log.warn({ portId: row.id, hostPort: row.hostPort }, "the host port of a published port is taken");
}

/** A free host port of the range, claimed by the row's unique (node, hostPort) and by actually listening on it. */
async function allocate(ctx: BoxesContext, fields: Omit<BoxPortRow, "hostPort" | "node" | "createdAt" | "updatedAt">): Promise<BoxPortRow> {
  const { first, last } = ctx.portSettings.range;
  const size = last - first + 1;
  const used = new Set(
    (await ctx.db.boxPort.findMany({ where: { node: ctx.driver.node }, select: { hostPort: true } })).map((row) => row.hostPort),
  );
  const start = randomInt(0, size);
  for (let step = 0; step < size; step++) {
    const hostPort = first + ((start + step) % size);
    if (used.has(hostPort)) continue;
    const now = new Date();
    let row: BoxPortRow;
    try {
      row = await ctx.db.boxPort.create({ data: { ...fields, hostPort, node: ctx.driver.node, createdAt: now, updatedAt: now } });
    } catch (error) {
      if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== "P2002") throw error;
      // Either another replica took this host port (try the next), or another call is publishing this very box port.
      if (await ctx.db.boxPort.findUnique({ where: { boxId_port: { boxId: fields.boxId, port: fields.port } } }))
        throw new DomainError(ErrorCode.conflict, `Port ${fields.port} is being published by another call at this moment; retry.`);
      continue;
    }
    if (await ctx.ports.listen(row)) return row;
    await ctx.db.boxPort.delete({ where: { id: row.id } });
  }
  throw new DomainError(
    ErrorCode.unavailable,
    `No free host port left in ${first}–${last} on this machine; unpublish ports you no longer need.`,
  );
}

function portView(rt: BoxesRuntime, row: BoxPortRow): PortView {
  const host = rt.portSettings.publicHost;
  return {
    id: row.id,
    boxId: row.boxId,
    port: row.port,
    protocol: row.protocol as PortView["protocol"],
    visibility: row.visibility as PortView["visibility"],
    url: row.protocol === "tcp" ? `tcp://${host}:${row.hostPort}` : `http://${host}:${row.hostPort}/`,
    host,
    hostPort: row.hostPort,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function usage(rt: BoxesRuntime, row: BoxPortRow, token: string | null): string {
  const { url, host, hostPort } = portView(rt, row);
  if (row.protocol === "tcp")
    return token
      ? `Connect to ${host}:${hostPort} and send the access token and a newline first, e.g. (echo '${token}'; cat) | nc ${host} ${hostPort}.`
      : `Connect to ${host}:${hostPort} (open to anyone).`;
  return token
    ? `curl -H 'Authorization: Bearer ${token}' ${url} — or open ${url}?accessToken=${token} once in a browser (a cookie keeps it).`
    : `Open ${url} (open to anyone).`;
}

function newPortId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return `pt_${Array.from({ length: 16 }, () => alphabet[randomInt(0, alphabet.length)]).join("")}`;
}
