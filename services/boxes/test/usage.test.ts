/**
 * get_usage and costCentavos over a simulated month on real boxes: the service's clock is moved by the test, so
 * every state change lands at an instant chosen here and the expected centavos are worked out by hand (exact
 * fractions, then each box rounded half up). March 2026 in São Paulo runs from 2026-03-01T03:00Z to
 * 2026-04-01T03:00Z (31 days). Prices: R$ 0.0001 per vCPU-second, R$ 0.000001 per MiB-second, R$ 3.10 per
 * GiB-month of disk.
 *   A  2 vCPU, 4 GiB, 20 GiB, kind tests: created 20 Feb, running all month.
 *   B  4 vCPU, 8 GiB, 30 GiB, kind render: created 2 Mar, asleep 5→6 Mar (reaper), woken by exec, paused
 *      8→10 Mar (suspend_box, resume_box), deleted 12 Mar.
 *   E  2 vCPU, 4 GiB, 20 GiB, no kind, another agent and person: 15 Mar 03:00:00.000 → 04:30:00.500.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { reapBoxes } from "../src/domain/reaper.js";
import { boxesTestStack, type BoxesTestStack, describeBoxes } from "./stack.js";
import { allScopes, fails, issuePaths, ok, restClient, run, type Box } from "./helpers.js";

interface Line {
  reais: string;
  centavos: number;
  [key: string]: unknown;
}
interface Usage {
  period: string;
  start: string;
  end: string;
  total: Line;
  forecast: Line;
  allowance: Line;
  allowanceLeft: Line;
  byKind: Line[];
  byBox: Line[];
  byAgent: Line[];
  byPerson: Line[];
  covers?: string;
  [key: string]: unknown;
}

let clock = new Date("2026-02-20T12:00:00Z");
const at = (iso: string) => (clock = new Date(iso));
const sum = (lines: Line[]) => lines.reduce((total, line) => total + line.centavos, 0);

describeBoxes("usage and billing", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let client: Client;
  let other: Client;
  let tenantB: Client;
  let boxA: Box;
  let boxB: Box;
  let boxE: Box;

  beforeAll(async () => {
    boxes = boxesTestStack({
      clock: () => clock,
      reapIntervalMs: 3_600_000,
      prices: { vcpuSecond: "0.0001", mibSecond: "0.000001", diskGiBMonth: "3.10" },
    });
    stack = await startStack({ services: { boxes: boxes.factory } });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes }));
    other = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes, personId: "person-b", agentId: "agent-two" }));
    tenantB = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-b", personId: "person-z" }));
  });
  afterAll(async () => {
    await Promise.all([client?.close(), other?.close(), tenantB?.close()]);
    await stack?.stop();
    await boxes?.cleanup();
  });

  const usage = (who: Client, args: Record<string, unknown> = {}) => ok<Usage>(who, "get_usage", args);

  it("when boxes run, sleep, pause and are deleted through a month, then the state intervals record each change at its instant", async () => {
    boxA = (await ok(client, "create_box", { name: "all-month", metadata: { kind: "tests" }, maxRunMinutes: 43_200 })).box;
    at("2026-03-02T03:00:00Z");
    boxB = (
      await ok(client, "create_box", {
        name: "busy",
        vcpus: 4,
        memMiB: 8192,
        dataGiB: 30,
        metadata: { kind: "render" },
        maxRunMinutes: 43_200,
      })
    ).box;
    expect(boxB.state).toBe("running");
    at("2026-03-05T03:00:00Z");
    // B idle for ten minutes, A just used.
    await boxes.service().db.box.update({ where: { id: boxB.id }, data: { lastActivityAt: new Date("2026-03-05T02:50:00Z") } });
    await boxes.service().db.box.update({ where: { id: boxA.id }, data: { lastActivityAt: clock } });
    expect((await reapBoxes(boxes.service().runtime, { now: clock })).slept).toEqual([boxB.id]);
    at("2026-03-06T03:00:00Z");
    expect((await run(client, boxB.id, "echo awake")).stdout).toBe("awake\n");
    at("2026-03-08T03:00:00Z");
    expect((await ok(client, "suspend_box", { boxId: boxB.id })).box.state).toBe("suspended");
    at("2026-03-10T03:00:00Z");
    expect((await ok(client, "resume_box", { boxId: boxB.id })).box.state).toBe("running");
    at("2026-03-12T03:00:00Z");
    expect((await ok(client, "delete_box", { boxId: boxB.id, confirm: true })).box.state).toBe("deleted");
    at("2026-03-15T03:00:00Z");
    boxE = (await ok(other, "create_box", { name: "short" })).box;
    at("2026-03-15T04:30:00.500Z");
    await ok(other, "delete_box", { boxId: boxE.id, confirm: true });

    const rows = await boxes.service().db.boxInterval.findMany({ where: { boxId: boxB.id }, orderBy: { id: "asc" } });
    expect(rows.filter((row) => row.startedAt < row.endedAt!).map((row) => [row.state, row.startedAt.toISOString()])).toEqual([
      ["running", "2026-03-02T03:00:00.000Z"],
      ["sleeping", "2026-03-05T03:00:00.000Z"],
      ["running", "2026-03-06T03:00:00.000Z"],
      ["suspended", "2026-03-08T03:00:00.000Z"],
      ["running", "2026-03-10T03:00:00.000Z"],
    ]);
    expect(rows.every((row) => row.endedAt !== null)).toBe(true);
    expect(rows.at(-1)).toMatchObject({ state: "deleting", endedAt: new Date("2026-03-12T03:00:00Z") });
  });

  it("when get_usage is called mid-month, then each box costs its exact share rounded once, the lines add up to the total and the forecast runs to month end", async () => {
    at("2026-03-20T03:00:00Z");
    const march = await usage(client);
    expect(march).toMatchObject({
      period: "2026-03",
      timeZone: "America/Sao_Paulo",
      start: "2026-03-01T03:00:00.000Z",
      end: "2026-04-01T03:00:00.000Z",
      asOf: "2026-03-20T03:00:00.000Z",
      currency: "BRL",
      plan: "free",
      // A 709031.36 + B 522644.16 + E 2332.5559… centavos
      total: { reais: "12340.08", centavos: 1_234_008 },
      // A all month 1156840.64, B and E as they ended
      forecast: { reais: "16818.18", centavos: 1_681_818 },
      allowance: { reais: "10.00", centavos: 1_000 },
      allowanceLeft: { reais: "0.00", centavos: 0 },
    });
    expect(march.byBox).toEqual([
      { boxId: boxA.id, name: "all-month", kind: "tests", state: "running", reais: "7090.31", centavos: 709_031 },
      { boxId: boxB.id, name: "busy", kind: "render", state: "deleted", reais: "5226.44", centavos: 522_644 },
      { boxId: boxE.id, name: "short", kind: null, state: "deleted", reais: "23.33", centavos: 2_333 },
    ]);
    expect(march.byKind).toEqual([
      { kind: "tests", reais: "7090.31", centavos: 709_031 },
      { kind: "render", reais: "5226.44", centavos: 522_644 },
      { kind: null, reais: "23.33", centavos: 2_333 },
    ]);
    expect(march.byAgent).toEqual([
      { agentId: "test-agent", reais: "12316.75", centavos: 1_231_675 },
      { agentId: "agent-two", reais: "23.33", centavos: 2_333 },
    ]);
    expect(march.byPerson).toEqual([
      { personId: "person-a", reais: "12316.75", centavos: 1_231_675 },
      { personId: "person-b", reais: "23.33", centavos: 2_333 },
    ]);
    for (const lines of [march.byBox, march.byKind, march.byAgent, march.byPerson]) expect(sum(lines)).toBe(march.total.centavos);
  });

  it("when get_box and list_boxes are called, then each box shows this month's cost in centavos, the same as its usage line", async () => {
    expect((await ok(client, "get_box", { boxId: boxA.id })).box.costCentavos).toBe(709_031);
    const listed = await ok<{ boxes: Box[] }>(client, "list_boxes", { includeDeleted: true });
    expect(Object.fromEntries(listed.boxes.map((box) => [box.name, box.costCentavos]))).toEqual({
      "all-month": 709_031,
      busy: 522_644,
      short: 2_333,
    });
  });

  it("when another account asks, then it sees only its own boxes and spend, and none of them appear in the first account's", async () => {
    const boxD = (await ok(tenantB, "create_box", { name: "tenant-b" })).box;
    const theirs = await usage(tenantB);
    expect(theirs.byBox.map((line) => line.boxId)).toEqual([boxD.id]);
    expect(theirs.total.centavos).toBe(0);
    // D runs the 12 days left: 1,036,800 s × R$ 0.004296 + 20 GiB × R$ 3.10 × 12/31 = R$ 4,478.0928
    expect(theirs.forecast.centavos).toBe(447_809);
    const ours = await usage(client);
    expect(ours.byBox.map((line) => line.boxId)).not.toContain(boxD.id);
    expect(ours.total.centavos).toBe(1_234_008);
    await fails(client, "get_box", { boxId: boxD.id }, "not_found");
    await ok(tenantB, "delete_box", { boxId: boxD.id, confirm: true });
  });

  it("when the month is over, then its total is final and equals its forecast; the new month counts from its first local midnight", async () => {
    at("2026-04-02T03:00:00Z");
    const march = await usage(client, { period: "2026-03" });
    expect(march.total).toEqual({ reais: "16818.18", centavos: 1_681_818 });
    expect(march.forecast).toEqual(march.total);
    expect(march.asOf).toBe("2026-04-01T03:00:00.000Z");
    const april = await usage(client);
    expect(april.period).toBe("2026-04");
    // A for one day: 86,400 s × R$ 0.004296 + 20 GiB × R$ 3.10 × 1/30 = 373.2410666… reais
    expect(april.byBox).toEqual([
      { boxId: boxA.id, name: "all-month", kind: "tests", state: "running", reais: "373.24", centavos: 37_324 },
    ]);
    expect((await ok(client, "get_box", { boxId: boxA.id })).box.costCentavos).toBe(37_324);
    // Before A existed: nothing.
    expect((await usage(client, { period: "2026-01" })).total.centavos).toBe(0);
  });

  it("when a snapshot is kept, then the bytes it takes are billed per GiB-month to the box it was saved from, even a deleted one", async () => {
    // 60 GiB ready at 2026-04-01T15:00Z, at the default R$ 0.25 per GiB-month.
    await boxes.service().db.snapshot.create({
      data: {
        id: "snap_usage",
        accountId: "acct-a",
        boxId: boxB.id,
        metadata: {},
        state: "ready",
        template: "host",
        templateVersion: "test",
        dataGiB: 30,
        sizeBytes: 60n << 30n,
        driver: "local",
        node: "test",
        createdAt: new Date("2026-04-01T14:59:00Z"),
        readyAt: new Date("2026-04-01T15:00:00Z"),
        createdBy: "person-a",
        createdByAgent: "test-agent",
      },
    });
    const april = await usage(client);
    // 12 h of 30 days: 60 × 0.25 / 60 = R$ 0.25; to the month's end (29.5 days): R$ 14.75
    expect(april.byBox.find((line) => line.boxId === boxB.id)).toMatchObject({ state: "deleted", reais: "0.25", centavos: 25 });
    expect(april.total.centavos).toBe(37_324 + 25);
    // A all April (30 days: R$ 11,135.232 + R$ 62) 1,119,723 + B's snapshot to May 1 1,475
    expect(april.forecast.centavos).toBe(1_119_723 + 1_475);
    expect((await ok(client, "get_box", { boxId: boxB.id })).box.costCentavos).toBe(25);
    expect((await usage(client, { period: "2026-03" })).total.centavos).toBe(1_681_818);
  });

  it("when period is not a month YYYY-MM, or a month not begun, then get_usage answers invalid_argument naming period", async () => {
    for (const period of ["2026-13", "2026-1", "2026-00", "26-03", "2026-03-01", "march", "", " 2026-03", 202603]) {
      const error = await fails(client, "get_usage", { period }, "invalid_argument");
      expect(issuePaths(error)).toContain("period");
    }
    const future = await fails(client, "get_usage", { period: "2026-05" }, "invalid_argument");
    expect(future.message + JSON.stringify(future.details)).toContain("has not begun");
    await fails(client, "get_usage", { period: "2026-04", boxId: boxA.id }, "invalid_argument");
  });

  it("when a key holds no box scope at all, then get_usage still answers (it asks for none) with its own agent's boxes, over MCP and REST", async () => {
    // the same person and agent as `client`: A and B are its agent's, E (agent-two's, 2,333 centavos) is not
    const key = await stack.createKey({ scopes: [] });
    const bare = await connectClient(stack.mcpUrl, key);
    try {
      const own = await usage(bare, { period: "2026-03" });
      expect(own.covers).toBe("caller");
      expect(own.total.centavos).toBe(1_681_818 - 2_333);
      expect(own.byAgent.map((line) => line.agentId)).toEqual(["test-agent"]);
      await fails(bare, "list_boxes", {}, "permission_denied");
    } finally {
      await bare.close();
    }
    const response = await fetch(`${stack.baseUrl}/v1/usage?period=2026-03`, { headers: { Authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Usage).total.centavos).toBe(1_681_818 - 2_333);
    const bad = await fetch(`${stack.baseUrl}/v1/usage?period=2026-13`, { headers: { Authorization: `Bearer ${key}` } });
    expect(bad.status).toBe(400);
  });
  it("when create, suspend, resume, fork and delete answer a box, then each carries its costCentavos, the same as get_box then", async () => {
    const same = async (answered: Box) => {
      expect(Number.isInteger(answered.costCentavos)).toBe(true);
      expect((await ok(client, "get_box", { boxId: answered.id })).box.costCentavos).toBe(answered.costCentavos);
    };
    at("2026-04-10T00:00:00Z");
    const created = (await ok(client, "create_box", { name: "answers" })).box;
    expect(created.costCentavos).toBe(0);
    await same(created);
    // One hour running: 3,600 s × R$ 0.004296 + 20 GiB × R$ 3.10 × 1/720 = R$ 15.5517…
    at("2026-04-10T01:00:00Z");
    const suspended = (await ok(client, "suspend_box", { boxId: created.id })).box;
    expect(suspended.costCentavos).toBe(1_555);
    await same(suspended);
    at("2026-04-10T02:00:00Z");
    const resumed = (await ok(client, "resume_box", { boxId: created.id })).box;
    await same(resumed);
    const [copy] = (await ok<{ boxes: Box[] }>(client, "fork_box", { boxId: created.id })).boxes;
    expect(copy!.costCentavos).toBe(0);
    await same(copy!);
    for (const box of [copy!, created]) await same((await ok(client, "delete_box", { boxId: box.id, confirm: true })).box);
  });
  it("when a snapshot is deleted, then its storage is billed until that moment and no longer", async () => {
    // 30 GiB ready on April 10 at R$ 0.25 per GiB-month, saved from B (deleted), kept on this node.
    at("2026-04-20T03:00:00Z");
    await boxes.service().db.snapshot.create({
      data: {
        id: "snap_deleted_later",
        accountId: "acct-a",
        boxId: boxB.id,
        metadata: {},
        state: "ready",
        template: "host",
        templateVersion: "test",
        dataGiB: 30,
        sizeBytes: 30n << 30n,
        driver: "local",
        node: boxes.service().runtime.driver.node,
        createdAt: new Date("2026-04-10T02:00:00Z"),
        readyAt: new Date("2026-04-10T03:00:00Z"),
        createdBy: "person-a",
        createdByAgent: "test-agent",
      },
    });
    const lineOf = (report: Usage) => report.byBox.find((line) => line.boxId === boxB.id)!.centavos;
    const before = await usage(client);
    // snap_usage (60 GiB since 1 Apr 15:00) and this one (30 GiB for 10 days): 60 × 0.25 × 18.5/30 + 30 × 0.25 × 10/30 = R$ 11.75
    expect(lineOf(before)).toBe(1_175);
    const rest = restClient(stack.baseUrl, await stack.createKey({ scopes: allScopes }));
    expect((await rest("DELETE", "/v1/snapshots/snap_deleted_later")).status).toBe(200);
    at("2026-04-25T03:00:00Z");
    const after = await usage(client);
    // Only snap_usage goes on: 60 × 0.25 × 23.5/30 = 11.75; plus the deleted one's 10 days, 2.50
    expect(lineOf(after)).toBe(1_175 + 250);
    expect((await ok(client, "get_box", { boxId: boxB.id })).box.costCentavos).toBe(1_425);
  });
});
