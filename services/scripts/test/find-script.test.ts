/**
 * get_script reads through pg, not Prisma (src/db/find-script.ts): the row must be exactly the one Prisma's
 * `findFirst` gives — every field, its type, trashed scripts, timestamps to the millisecond — and another account's
 * id must find nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { startStack, type Stack } from "@bancada/e2e";
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
});
