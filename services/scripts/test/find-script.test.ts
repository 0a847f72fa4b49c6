/**
 * get_script reads through pg, not Prisma (src/db/find-script.ts): the row must be exactly the one Prisma's
 * `findFirst` gives — every field, its type, trashed scripts, timestamps to the millisecond — and another account's
 * id must find nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { startStack, type Stack } from "@bancada/e2e";
import { adminDatabaseUrl } from "@bancada/testkit";
import { createScriptsDb } from "../src/db/client.js";
import { findScript } from "../src/db/find-script.js";
import { createScript } from "../src/domain/create-script.js";
import { trashScript } from "../src/domain/update-script.js";
import { createScriptsService, type ScriptsService } from "../src/index.js";

describe("findScript (get_script's read)", () => {
  let stack: Stack;
  let service: ScriptsService;
  const a = { accountId: "acct-a", personId: "person-a" };

  beforeAll(async () => {
    stack = await startStack({
      services: {
        scripts: async (deps) => {
          service = await createScriptsService(deps);
          return { name: "scripts", routes: service.routes, stop: () => service.stop() };
        },
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const prismaRow = (accountId: string, id: string) => service.db.script.findFirst({ where: { id, accountId } });

  it("when a script is active or in the trash, then it is the row Prisma reads, field for field", async () => {
    const ctx = { db: service.db, ...a };
    const active = await createScript(ctx, { title: "Título ativo", text: "olá\nmundo ✓", status: "review" });
    const second = await createScript(ctx, { title: "Na lixeira", text: "x", status: "draft" });
    const trashed = await trashScript(ctx, { id: second.id, revision: second.revision });
    for (const id of [active.id, trashed.id]) {
      const row = await findScript(service.db, a.accountId, id);
      expect(row).toEqual(await prismaRow(a.accountId, id));
      expect(row?.createdAt).toBeInstanceOf(Date);
    }
    expect((await findScript(service.db, a.accountId, trashed.id))?.deletedAt).toEqual(new Date(trashed.deletedAt!));
  });

  it("when another account asks for the id, or the id is unknown, then nothing is found", async () => {
    const own = await createScript({ db: service.db, ...a }, { title: "Da conta A", text: "segredo", status: "draft" });
    expect(await findScript(service.db, "acct-b", own.id)).toBeNull();
    expect(await findScript(service.db, a.accountId, randomUUID())).toBeNull();
  });

  it("when the server ends the connection a raw read left idle, then the process goes on and the next read reconnects", async () => {
    // a db of its own whose Prisma client never connected: only the raw pool's own listener can catch the error
    const db = createScriptsDb(stack.database.url, 1);
    try {
      const own = await createScript({ db: service.db, ...a }, { title: "Lida crua", text: "x", status: "draft" });
      expect((await findScript(db, a.accountId, own.id))?.id).toBe(own.id);
      const { rows } = await db.pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const admin = new pg.Client({ connectionString: adminDatabaseUrl });
      await admin.connect();
      try {
        await admin.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
      } finally {
        await admin.end();
      }
      await expect.poll(() => db.pool.totalCount, { timeout: 5_000 }).toBe(0);
      expect((await findScript(db, a.accountId, own.id))?.id).toBe(own.id);
    } finally {
      await db.pool.end();
    }
  });
});
