/**
 * create_script's idempotencyKey: a retry (sequential or racing) returns the first result and never
 * writes a second script; the same key with other arguments is idempotency_conflict; keys are per account.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { callTool, connectClient, startStack, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./stack.js";
import { fails, marker, ok, restClient, type ListResult, type Rest, type Script } from "./helpers.js";

interface Change {
  seq: number;
  scriptId: string;
  revision: number;
  kind: string;
}

describe("create_script idempotency", () => {
  let stack: Stack;
  let clientA: Client;
  let clientB: Client;
  let restA: Rest;

  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory } });
    const keyA = await stack.createKey();
    clientA = await connectClient(stack.mcpUrl, keyA);
    clientB = await connectClient(stack.mcpUrl, await stack.createKey({ accountId: "acct-b", personId: "person-b" }));
    restA = restClient(stack.baseUrl, keyA);
  });
  afterAll(async () => {
    await clientA?.close();
    await clientB?.close();
    await stack?.stop();
  });

  const matching = async (client: Client, query: string) => (await ok<ListResult>(client, "list_scripts", { query, limit: 100 })).scripts;
  const changesOf = async (scriptId: string) => {
    const { body } = await restA<{ changes: Change[] }>("GET", "/v1/changes?after=0&limit=1000");
    return body.changes.filter((change) => change.scriptId === scriptId);
  };

  it("when create_script is called twice with one key, then the second call returns the first script and nothing new is written", async () => {
    const title = marker("twice");
    const idempotencyKey = randomUUID();
    const first = await ok(clientA, "create_script", { title, text: "once", idempotencyKey });
    const second = await ok(clientA, "create_script", { title, text: "once", idempotencyKey });
    expect(second).toEqual(first);
    expect((await matching(clientA, title)).map((item) => item.id)).toEqual([first.script.id]);
    expect((await changesOf(first.script.id)).map((change) => change.kind)).toEqual(["created"]);
  });

  it("when a retry comes after the script was edited, then it still returns the first result and creates nothing", async () => {
    const title = marker("edited");
    const idempotencyKey = randomUUID();
    const first = await ok(clientA, "create_script", { title, text: "v1", status: "ready", idempotencyKey });
    await ok(clientA, "update_script", { id: first.script.id, revision: 1, title, text: "v2", status: "ready" });
    const retry = await ok(clientA, "create_script", { title, text: "v1", status: "ready", idempotencyKey });
    expect(retry.script.id).toBe(first.script.id);
    expect(await matching(clientA, title)).toHaveLength(1);
  });

  it("when 10 calls with one key race, then exactly one script exists and every call answers with it", async () => {
    const title = marker("race");
    const idempotencyKey = randomUUID();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => callTool<{ script: Script }>(clientA, "create_script", { title, text: "raced", idempotencyKey })),
    );
    for (const outcome of outcomes) expect(outcome.isError, outcome.text.slice(0, 300)).toBe(false);
    const ids = new Set(outcomes.map((outcome) => outcome.data.script.id));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect((await matching(clientA, title)).map((item) => item.id)).toEqual([id]);
    expect((await changesOf(id!)).map((change) => change.kind)).toEqual(["created"]);
  });

  it("when racing calls use different keys, then each creates its own script", async () => {
    const title = marker("distinct");
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => ok(clientA, "create_script", { title, text: "x", idempotencyKey: randomUUID() })),
    );
    expect(new Set(outcomes.map((outcome) => outcome.script.id)).size).toBe(5);
    expect(await matching(clientA, title)).toHaveLength(5);
  });

  it("when one key is reused with other arguments, then idempotency_conflict and no second script", async () => {
    const title = marker("conflict");
    const idempotencyKey = randomUUID();
    const first = await ok(clientA, "create_script", { title, text: "original", idempotencyKey });
    const error = await fails(clientA, "create_script", { title, text: "different", idempotencyKey }, "idempotency_conflict");
    expect(JSON.stringify(error.details ?? {})).toContain(idempotencyKey);
    await fails(clientA, "create_script", { title: `${title} other`, text: "original", idempotencyKey }, "idempotency_conflict");
    await fails(clientA, "create_script", { title, text: "original", status: "completed", idempotencyKey }, "idempotency_conflict");
    expect((await matching(clientA, title)).map((item) => item.id)).toEqual([first.script.id]);
    const again = await ok(clientA, "create_script", { title, text: "original", idempotencyKey });
    expect(again).toEqual(first);
  });

  it("when racing calls reuse one key with different arguments, then one script is created and the others get idempotency_conflict", async () => {
    const title = marker("mixed");
    const idempotencyKey = randomUUID();
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        callTool<{ script: Script; error: { code: string } }>(clientA, "create_script", { title, text: `variant ${i}`, idempotencyKey }),
      ),
    );
    const created = outcomes.filter((outcome) => !outcome.isError);
    expect(created).toHaveLength(1);
    for (const outcome of outcomes.filter((o) => o.isError)) expect(outcome.data.error.code).toBe("idempotency_conflict");
    expect((await matching(clientA, title)).map((item) => item.id)).toEqual([created[0]!.data.script.id]);
  });

  it("when another account uses the same key, then it gets its own script and the first account's is untouched", async () => {
    const title = marker("shared-key");
    const idempotencyKey = randomUUID();
    const mine = await ok(clientA, "create_script", { title, text: "A", idempotencyKey });
    const theirs = await ok(clientB, "create_script", { title, text: "A", idempotencyKey });
    expect(theirs.script.id).not.toBe(mine.script.id);
    expect(theirs.script.createdBy).toBe("person-b");
    const theirsWithOtherArgs = await ok(clientB, "create_script", { title: `${title} b`, text: "B", idempotencyKey: randomUUID() });
    expect(theirsWithOtherArgs.script.id).not.toBe(mine.script.id);
    expect((await matching(clientA, title)).map((item) => item.id)).toEqual([mine.script.id]);
    expect((await matching(clientB, title)).map((item) => item.id).sort()).toEqual(
      [theirs.script.id, theirsWithOtherArgs.script.id].sort(),
    );
    expect(await ok(clientA, "get_script", { id: mine.script.id })).toEqual(mine);
  });

  it("when REST and MCP share one key with the same arguments, then they return the same script", async () => {
    const title = marker("rest-mcp");
    const idempotencyKey = randomUUID();
    const viaMcp = await ok(clientA, "create_script", { title, text: "both", idempotencyKey });
    const viaRest = await restA<{ script: Script }>("POST", "/v1/scripts", {
      body: { title, text: "both" },
      headers: { "Idempotency-Key": idempotencyKey },
    });
    expect(viaRest.body.script).toEqual(viaMcp.script);
    expect(await matching(clientA, title)).toHaveLength(1);
  });
});
