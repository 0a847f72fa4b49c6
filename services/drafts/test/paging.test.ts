/**
 * Keyset paging of sosoapi_list_content_drafts: 500 drafts paged while others change, are created and
 * are submitted; every draft nobody touched comes back exactly once and no draft ever comes back twice.
 * Plus the cursor's edges (time zones, sub-millisecond times, years PostgreSQL cannot parse).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Stack } from "@bancada/e2e";
import { createDraftsDb, type DraftsDb } from "../src/index.js";
import { draftsFactory, startDraftsStack } from "./stack.js";
import { closeAll, createDraft, ok, person, workspace, type Draft, type Page, type Person, type Summary } from "./helpers.js";

describe("keyset paging", () => {
  let stack: Stack;
  let db: DraftsDb;
  let ana: Person;
  let ws: string;
  const seeded: string[] = [];

  beforeAll(async () => {
    stack = await startDraftsStack({ services: { drafts: draftsFactory() } });
    db = createDraftsDb(stack.database.url, 2);
    ana = await person(stack);
    ws = await workspace(ana);
    // 500 drafts on 100 distinct times: five share each time, so ties are broken by id.
    const rows = await db.$queryRaw<{ id: string }[]>`
      INSERT INTO drafts (id, workspace_id, revision, state, caption, account_ids, asset_count, created_by, updated_by, created_at, updated_at)
      SELECT gen_random_uuid(), ${ws}::uuid, 1, 'draft', 'seeded ' || n, ARRAY['x:acme'], 0, ${ana.personId}, ${ana.personId},
             date_trunc('second', now()) - interval '1 day' + (n / 5) * interval '1 second', date_trunc('second', now()) - interval '1 day' + (n / 5) * interval '1 second'
        FROM generate_series(0, 499) AS n
      RETURNING id::text`;
    seeded.push(...rows.map((row) => row.id));
  });
  afterAll(async () => {
    await closeAll(ana);
    await db?.$disconnect();
    await stack?.stop();
  });

  const list = (args: Record<string, unknown>) => ok<Page>(ana.client, "sosoapi_list_content_drafts", { workspace_id: ws, ...args });
  const update = (id: string, revision: number) =>
    ok(ana.client, "sosoapi_update_content_draft", {
      workspace_id: ws,
      draft_id: id,
      expected_revision: revision,
      request_id: randomUUID(),
      caption: `touched ${revision}`,
    });

  it("when 500 drafts are paged while others are updated, created and submitted, then every untouched draft comes exactly once and none twice", async () => {
    const touched = new Set<string>();
    const submitted = new Set<string>();
    const revisions = new Map(seeded.map((id) => [id, 1]));
    const seen: Summary[] = [];
    const touch = async (id: string) => {
      touched.add(id);
      const { draft } = await update(id, revisions.get(id)!);
      revisions.set(id, draft.revision);
    };
    let cursor: Page["next_cursor"] = null;
    let pages = 0;
    do {
      const before = seen.map((item) => item.id).filter((id) => !submitted.has(id));
      const notYet = seeded.filter((id) => !touched.has(id) && !before.includes(id));
      // While the page is read: change one draft already returned (it must not come again), one not yet
      // returned (it may be skipped), create one, and submit one.
      const [page]: [Page, ...unknown[]] = await Promise.all([
        list({ limit: 20, ...(cursor ? { cursor } : {}) }),
        before.length ? touch(before[pages % before.length]!) : Promise.resolve(),
        notYet.length ? touch(notYet[(pages * 7) % notYet.length]!) : Promise.resolve(),
        pages % 3 === 0 ? createDraft(ana.client, ws, { caption: `new ${pages}` }) : Promise.resolve(),
      ]);
      if (pages % 5 === 2 && notYet.length > 1) {
        const id = notYet[notYet.length - 1]!;
        touched.add(id);
        submitted.add(id);
        await ok(ana.client, "sosoapi_submit_content_draft", {
          workspace_id: ws,
          draft_id: id,
          expected_revision: revisions.get(id),
          request_id: randomUUID(),
        });
      }
      expect(page.returned_count).toBe(page.drafts.length);
      expect(page.drafts.length).toBeLessThanOrEqual(20);
      seen.push(...page.drafts);
      cursor = page.next_cursor;
      pages++;
    } while (cursor);

    const ids = seen.map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    const untouched = seeded.filter((id) => !touched.has(id));
    expect(untouched.length).toBeGreaterThan(400);
    for (const id of untouched) expect(ids.filter((seenId) => seenId === id)).toHaveLength(1);
    expect(pages).toBeGreaterThan(22);
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1]!, seen[i]!];
      expect(
        a.updated_at > b.updated_at || (a.updated_at === b.updated_at && a.id > b.id),
        `${a.updated_at}/${a.id} before ${b.updated_at}/${b.id}`,
      ).toBe(true);
    }
  });

  it("when a draft's updated_at is ahead of this server's clock (another replica's), then an update still moves it forward", async () => {
    const draft = await createDraft(ana.client, ws);
    await db.$executeRaw`UPDATE drafts SET updated_at = now() + interval '1 hour' WHERE id = ${draft.id}::uuid`;
    const { draft: ahead } = await ok(ana.client, "sosoapi_get_content_draft", { workspace_id: ws, draft_id: draft.id });
    const { draft: after } = await update(draft.id, ahead.revision);
    expect(Date.parse(after.updated_at)).toBe(Date.parse(ahead.updated_at) + 1);
    expect((await list({ limit: 1 })).drafts[0]!.id).toBe(draft.id);
    await db.$executeRaw`UPDATE drafts SET updated_at = now() - interval '1 hour' WHERE id = ${draft.id}::uuid`;
  });

  describe("cursor edges", () => {
    let ordered: Summary[];
    beforeAll(async () => {
      ordered = [];
      let cursor: Page["next_cursor"] = null;
      do {
        const page: Page = await list({ limit: 50, ...(cursor ? { cursor } : {}) });
        ordered.push(...page.drafts);
        cursor = page.next_cursor;
      } while (cursor);
    });

    it("when the same instant is written with an offset (+05:30) instead of Z, then the next page is the same", async () => {
      const at = ordered[100]!;
      const shifted = new Date(Date.parse(at.updated_at) + 5.5 * 3600_000).toISOString().replace(/Z$/, "+05:30");
      const viaZ = await list({ limit: 5, cursor: { updated_at: at.updated_at, id: at.id } });
      const viaOffset = await list({ limit: 5, cursor: { updated_at: shifted, id: at.id } });
      expect(viaOffset.drafts.map((d) => d.id)).toEqual(viaZ.drafts.map((d) => d.id));
      expect(viaZ.drafts[0]!.id).toBe(ordered[101]!.id);
    });

    it("when the cursor time lies between two milliseconds, then every draft at the millisecond below comes, whatever the cursor id", async () => {
      const tieStart = ordered.findIndex(
        (d, i) => i > 100 && ordered[i + 1]?.updated_at === d.updated_at && ordered[i - 1]?.updated_at !== d.updated_at,
      );
      const first = ordered[tieStart]!;
      const between = first.updated_at.replace(/\.(\d{3})Z$/, ".$10001Z");
      const page = await list({ limit: 5, cursor: { updated_at: between, id: "00000000-0000-0000-0000-000000000000" } });
      expect(page.drafts[0]!.id).toBe(first.id);
    });

    it("when the cursor is uppercase or urn:uuid:-prefixed, then it means the same draft", async () => {
      const at = ordered[10]!;
      const plain = await list({ limit: 3, cursor: { updated_at: at.updated_at, id: at.id } });
      for (const id of [at.id.toUpperCase(), `urn:uuid:${at.id}`]) {
        expect((await list({ limit: 3, cursor: { updated_at: at.updated_at, id } })).drafts).toEqual(plain.drafts);
      }
    });

    it("when the cursor lies in year 0000 or beyond 9999 UTC (valid for the schema, unknown to PostgreSQL), then the page is empty or starts at the top", async () => {
      const empty = await list({ cursor: { updated_at: "0000-02-29T23:59:59-23:59", id: randomUUID() } });
      expect(empty).toEqual({ drafts: [], next_cursor: null, returned_count: 0 });
      const top = await list({ limit: 3, cursor: { updated_at: "9999-12-31T23:59:59-23:59", id: randomUUID() } });
      expect(top.drafts.map((d) => d.id)).toEqual(ordered.slice(0, 3).map((d) => d.id));
    });

    it("when a cursor is null, then the first page comes; when the last page is read, next_cursor is null", async () => {
      expect((await list({ limit: 2, cursor: null })).drafts.map((d) => d.id)).toEqual(ordered.slice(0, 2).map((d) => d.id));
      const last = ordered.at(-2)!;
      expect(await list({ limit: 50, cursor: { updated_at: last.updated_at, id: last.id } })).toEqual({
        drafts: [ordered.at(-1)],
        next_cursor: null,
        returned_count: 1,
      });
    });
  });

  it("when a caption has 600 emoji, then the preview holds 500 of them (code points) and the draft keeps them all", async () => {
    const draft: Draft = await createDraft(ana.client, ws, { caption: "😀".repeat(600) });
    const item = (await list({ limit: 1 })).drafts[0]!;
    expect(item.id).toBe(draft.id);
    expect([...item.caption_preview]).toHaveLength(500);
    expect(draft.caption).toBe("😀".repeat(600));
  });

  it("when a person's id is not a UUID, then created_by and updated_by show null", async () => {
    const carla = await person(stack, { personId: "carla@acme" });
    const shared = await workspace(carla);
    const draft = await createDraft(carla.client, shared);
    expect(draft).toMatchObject({ created_by: null, updated_by: null });
    expect((await ok<Page>(carla.client, "sosoapi_list_content_drafts", { workspace_id: shared })).drafts[0]).toMatchObject({
      created_by: null,
      updated_by: null,
    });
    await closeAll(carla);
  });
});
