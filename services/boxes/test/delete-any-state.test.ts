/**
 * delete_box in any state: a box being created, forked or saved as a snapshot is deleted, the operation cancelled
 * and nothing of it left behind (processes, disks, copies); a delete during a delete answers the box as it is.
 */
import { existsSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "@bancada/e2e";
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeBoxFixture, describeBoxes, mountsUnder, openBoxFixture, type BoxFixture } from "./stack.js";
import { allScopes, ok, run, until, type Box } from "./helpers.js";

describeBoxes("delete_box in any state", () => {
  let fixture: BoxFixture;
  let client: Client;

  beforeAll(async () => {
    fixture = await openBoxFixture("first");
    await fixture.client.close();
    fixture.key = await fixture.stack.createKey({ scopes: [...allScopes, "images:read", "images:write"] });
    fixture.client = client = await connectClient(fixture.stack.mcpUrl, fixture.key);
    // Room for a source and its copies at once.
    await fixture.boxes.service().db.accountPlan.create({ data: { accountId: "acct-a", plan: "pro" } });
  });
  afterAll(() => closeBoxFixture(fixture));

  const gone = (boxId: string) => {
    const { dataDir } = fixture.boxes;
    return (
      !existsSync(`${dataDir}/state/${boxId}`) &&
      !existsSync(`${dataDir}/mnt/${boxId}`) &&
      !mountsUnder(dataDir).some((m) => m.endsWith(boxId))
    );
  };
  /** Enough written that copying the disk takes a moment (a plain copy on ext4: about a second here). */
  const bigBox = async (name: string) => {
    const { box } = await ok(client, "create_box", { name });
    await run(client, box.id, "head -c 600M /dev/urandom > big && sync");
    return box;
  };

  it("when a box being created (its setup running) is deleted, then the create stops, the box is deleted and nothing is left", async () => {
    const { box } = await ok(client, "create_box", { name: "creating", setup: { cmd: "sleep 60" }, wait: false });
    await until(
      () => ok(client, "get_box", { boxId: box.id }),
      (r) => r.box.stateReason === "running setup",
      30_000,
    );
    const started = Date.now();
    const { box: deleted } = await ok(client, "delete_box", { boxId: box.id, confirm: true });
    expect(deleted).toMatchObject({ state: "deleted", operation: null });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(gone(box.id)).toBe(true);
    // The create's own last step never overwrote the deletion.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await ok(client, "get_box", { boxId: box.id })).box.state).toBe("deleted");
    const again = (await ok(client, "create_box", { name: "creating" })).box;
    await ok(client, "delete_box", { boxId: again.id, confirm: true });
  });

  it("when the source of a fork is deleted while its disk is copied, then the fork is cancelled and its copies are deleted too", async () => {
    const source = await bigBox("fork-source");
    const { boxes: copies } = await ok<{ boxes: Box[] }>(client, "fork_box", { boxId: source.id, count: 2, wait: false });
    const { box: deleted } = await ok(client, "delete_box", { boxId: source.id, confirm: true });
    expect(deleted.state).toBe("deleted");
    for (const copy of copies) {
      const settled = await until(
        () => ok(client, "get_box", { boxId: copy.id }),
        (r) => r.box.state === "deleted" || (r.box.state === "running" && r.box.operation === null),
        30_000,
      );
      // Cancelled while copying (the usual case), or already made before the delete arrived: never half-made.
      if (settled.box.state === "deleted") {
        expect(settled.box.stateReason).toContain("the fork was cancelled");
        expect(gone(copy.id)).toBe(true);
      } else await ok(client, "delete_box", { boxId: copy.id, confirm: true });
    }
    expect(gone(source.id)).toBe(true);
  });

  it("when a box being saved as a snapshot is deleted, then the snapshot fails with the reason and its files go", async () => {
    const box = await bigBox("snap-source");
    const { snapshot } = await ok<{ snapshot: { id: string; state: string } }>(client, "save_snapshot", { boxId: box.id, wait: false });
    const { box: deleted } = await ok(client, "delete_box", { boxId: box.id, confirm: true });
    expect(deleted.state).toBe("deleted");
    const { snapshots } = await ok<{ snapshots: { id: string; state: string; stateReason: string | null }[] }>(client, "list_snapshots", {
      boxId: box.id,
    });
    expect(snapshots.map((s) => s.id)).toEqual([snapshot.id]);
    // Cancelled while copying (the usual case), or ready before the delete arrived: never left creating.
    expect(["failed", "ready"]).toContain(snapshots[0]!.state);
    if (snapshots[0]!.state === "failed") expect(snapshots[0]!.stateReason).toContain("deleted while its disk was being saved");
    expect(gone(box.id)).toBe(true);
  });

  it("when a box is deleted twice at once, then both answer it deleted, once", async () => {
    const { box } = await ok(client, "create_box", { name: "twice" });
    const [one, two] = await Promise.all([
      ok(client, "delete_box", { boxId: box.id, confirm: true }),
      ok(client, "delete_box", { boxId: box.id, confirm: true }),
    ]);
    expect([one.box.state, two.box.state]).toEqual(["deleted", "deleted"]);
    const rows = await fixture.boxes.service().db.boxInterval.findMany({ where: { boxId: box.id, state: "deleting" } });
    expect(rows).toHaveLength(1);
  });
});
