/**
 * What a caller sends at the edge of the boxes API: a list cursor or a period that no list or month could give is
 * `invalid_argument` before any query (a year 0 reached PostgreSQL and answered `internal`), a NUL in a signed
 * transfer URL is 400, and get_usage, which any key of the account may call (it needs no scope), shows a key
 * without boxes:read only the spend of the boxes its own agent created.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { boxesTestStack, type BoxesTestStack, describeBoxes } from "./stack.js";
import { allScopes, fails, issuePaths, ok, restClient, type Box } from "./helpers.js";

interface Line {
  centavos: number;
  [key: string]: unknown;
}
interface Usage {
  covers: string;
  total: Line;
  allowanceLeft: Line;
  byBox: (Line & { boxId: string })[];
  byAgent: (Line & { agentId: string })[];
  byPerson: (Line & { personId: string })[];
}

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describeBoxes("boxes input at the edge", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let owner: Client;
  let other: Client;
  let otherKey: string;
  let mine: Box;
  let theirs: Box;

  beforeAll(async () => {
    boxes = boxesTestStack();
    stack = await startStack({ services: { boxes: boxes.factory } });
    owner = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes }));
    otherKey = await stack.createKey({ scopes: allScopes, personId: "person-b", agentId: "agent-two" });
    other = await connectClient(stack.mcpUrl, otherKey);
    mine = (await ok(owner, "create_box", { name: "owner-box" })).box;
    theirs = (await ok(other, "create_box", { name: "other-box" })).box;
  }, 180_000);
  afterAll(async () => {
    await Promise.all([owner?.close(), other?.close()]);
    await stack?.stop();
    await boxes?.cleanup();
  });

  it("when list_boxes gets a cursor of year 0 or a made-up id, then invalid_argument naming cursor, on MCP and REST", async () => {
    for (const cursor of [
      cursorOf(["0000-01-01T00:00:00Z", "bx_"]),
      cursorOf(["0000-01-01T00:00:00.000Z", "bx_abc"]),
      cursorOf(["2026-01-01T00:00:00.000Z", "bx_\u0000"]),
      cursorOf(["2026-01-01", "bx_abc"]),
    ]) {
      const error = await fails(owner, "list_boxes", { cursor }, "invalid_argument");
      expect(issuePaths(error)).toEqual(["cursor"]);
      const rest = await restClient(stack.baseUrl, otherKey)("GET", `/v1/boxes?cursor=${cursor}`);
      expect(rest.status).toBe(400);
    }
    // a real cursor still pages
    const first = await ok<{ boxes: Box[]; nextCursor: string | null }>(owner, "list_boxes", { limit: 1 });
    expect(first.nextCursor).not.toBeNull();
    const second = await ok<{ boxes: Box[] }>(owner, "list_boxes", { limit: 1, cursor: first.nextCursor });
    expect(second.boxes.map((box) => box.id)).not.toEqual(first.boxes.map((box) => box.id));
  });

  it("when get_usage asks for a period before 2000-01 (0000-01 was read as January 1900), then invalid_argument naming period; 2000-01 passes", async () => {
    for (const period of ["0000-01", "0099-12", "1999-12"]) {
      const error = await fails(owner, "get_usage", { period }, "invalid_argument");
      expect(issuePaths(error)).toEqual(["period"]);
    }
    const first = await ok<Usage & { period: string; start: string }>(owner, "get_usage", { period: "2000-01" });
    expect(first.start).toBe("2000-01-01T02:00:00.000Z");
    expect(first.total.centavos).toBe(0);
  });

  it("when a key without boxes:read calls get_usage, then it sees only its own agent's boxes; a key with boxes:read sees the account's", async () => {
    const account = await ok<Usage>(owner, "get_usage", {});
    expect(account.covers).toBe("account");
    expect(account.byBox.map((line) => line.boxId).sort()).toEqual([mine.id, theirs.id].sort());
    expect(account.byPerson.map((line) => line.personId).sort()).toEqual(["person-a", "person-b"]);

    const scriptsOnly = await connectClient(
      stack.mcpUrl,
      await stack.createKey({ scopes: ["scripts:read"], personId: "person-b", agentId: "agent-two" }),
    );
    const own = await ok<Usage>(scriptsOnly, "get_usage", {});
    expect(own.covers).toBe("caller");
    expect(own.byBox.map((line) => line.boxId)).toEqual([theirs.id]);
    expect(own.byAgent.map((line) => line.agentId)).toEqual(["agent-two"]);
    expect(own.byPerson.map((line) => line.personId)).toEqual(["person-b"]);
    // what is left of the plan is the workspace's: an agent learns whether it may still spend
    expect(own.allowanceLeft.centavos).toBe(account.allowanceLeft.centavos);
    const rest = await restClient(stack.baseUrl, await stack.createKey({ scopes: ["scripts:read"], agentId: "nobody-agent" }))(
      "GET",
      "/v1/usage",
    );
    expect(rest.status).toBe(200);
    expect((rest.body as unknown as Usage).byBox).toEqual([]);
    expect((rest.body as unknown as Usage).byPerson).toEqual([]);
    await scriptsOnly.close();
  });

  it("when a signed transfer URL holds a NUL in the box id, then 400 invalid_argument (not PostgreSQL's 22021 as internal)", async () => {
    const response = await fetch(`${stack.baseUrl}/boxes/transfers/upload/%00?path=/tmp/x&mode=0644&expires=9999999999&signature=x`, {
      method: "PUT",
      body: "x",
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("invalid_argument");
    expect((await fetch(`${stack.baseUrl}/v1/boxes/%ZZ`, { headers: { authorization: `Bearer ${otherKey}` } })).status).toBe(400);
  });
});
