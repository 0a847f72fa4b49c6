/**
 * Workspace secrets (docs/boxes.md#secrets) end to end: the REST routes, sealing at rest, injection into exec,
 * start_job and setup of the boxes that name them, tenancy, a deleted secret, and — over every answer this test
 * received, every log line the stack wrote, the audit records and the service's own tables — the value never
 * shows up anywhere Bancada itself writes it. Commands only ever print a SHA-256 of the value.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { callTool } from "@bancada/testkit";
import { captureLogs, connectClient, startStack, type Stack } from "@bancada/e2e";
import { SecretsKey, developmentSecretsKey } from "../src/domain/secrets/sealing.js";
import { boxesTestStack, type BoxesTestStack, describeBoxes } from "./stack.js";
import { allScopes, restClient, type Box, type ErrorBody, type ExecResult, type Job } from "./helpers.js";

const value = `tok-${randomBytes(16).toString("hex")}`;
const otherValue = `tok-${randomBytes(16).toString("hex")}`;
const sha = (text: string) => `${createHash("sha256").update(text).digest("hex")}  -\n`;
const printSha = 'printf %s "$API_TOKEN" | sha256sum';

describe("secret sealing", () => {
  const key = SecretsKey.from(developmentSecretsKey);

  it("when a value is sealed, then it opens only with the same key, account and name", () => {
    const sealed = key.seal("acct-a", "API_TOKEN", value);
    expect(sealed.includes(Buffer.from(value))).toBe(false);
    expect(key.open("acct-a", "API_TOKEN", sealed)).toBe(value);
    expect(key.open("acct-b", "API_TOKEN", sealed)).toBeNull();
    expect(key.open("acct-a", "OTHER", sealed)).toBeNull();
    expect(SecretsKey.from(randomBytes(32).toString("hex")).open("acct-a", "API_TOKEN", sealed)).toBeNull();
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 1]! ^= 1;
    expect(key.open("acct-a", "API_TOKEN", flipped)).toBeNull();
    // two seals of one value differ (fresh nonce)
    expect(key.seal("acct-a", "API_TOKEN", value).equals(sealed)).toBe(false);
  });

  it("when the key is not 32 bytes of base64 or hex, then it is refused saying what is expected", () => {
    for (const bad of ["", "c2hvcnQ=", "z".repeat(64), randomBytes(31).toString("base64"), randomBytes(33).toString("hex")])
      expect(() => SecretsKey.from(bad)).toThrow(/32 random bytes/);
    expect(SecretsKey.from(randomBytes(32).toString("base64")).id).toMatch(/^[0-9a-f]{16}$/);
  });
});

describeBoxes("workspace secrets", () => {
  const logs = captureLogs("debug");
  let boxes: BoxesTestStack;
  let stack: Stack;
  let client: Client;
  let tenantB: Client;
  let rest: ReturnType<typeof restClient>;
  let restB: ReturnType<typeof restClient>;
  let box: Box;
  /** Every answer this test received, tool or REST, as text. */
  const seen: string[] = [];

  const tool = async <T>(who: Client, name: string, args: Record<string, unknown>): Promise<T> => {
    const outcome = await callTool<T>(who, name, args, { timeoutMs: 120_000 });
    seen.push(outcome.text);
    if (outcome.isError) throw new Error(`${name} failed: ${outcome.text.slice(0, 400)}`);
    return outcome.data;
  };
  const toolError = async (who: Client, name: string, args: Record<string, unknown>, code: string): Promise<ErrorBody> => {
    const outcome = await callTool<{ error: ErrorBody }>(who, name, args, { timeoutMs: 120_000 });
    seen.push(outcome.text);
    expect(outcome.isError, outcome.text).toBe(true);
    expect(outcome.data.error.code).toBe(code);
    return outcome.data.error;
  };
  const call = async <T = Record<string, unknown>>(via: ReturnType<typeof restClient>, method: string, path: string, body?: unknown) => {
    const response = await via<T>(method, path, body);
    seen.push(JSON.stringify(response.body));
    return response;
  };

  beforeAll(async () => {
    boxes = boxesTestStack({ secretsKey: randomBytes(32).toString("base64") });
    stack = await startStack({ services: { boxes: boxes.factory }, log: logs.log });
    const key = await stack.createKey({ scopes: allScopes });
    const keyB = await stack.createKey({ scopes: allScopes, accountId: "acct-b", personId: "person-z" });
    client = await connectClient(stack.mcpUrl, key);
    tenantB = await connectClient(stack.mcpUrl, keyB);
    rest = restClient(stack.baseUrl, key);
    restB = restClient(stack.baseUrl, keyB);
  });
  afterAll(async () => {
    await Promise.all([client?.close(), tenantB?.close()]);
    await stack?.stop();
    await boxes?.cleanup();
  });

  it("when a secret is set over REST, then the answer and the list carry its name, never its value; setting again replaces it", async () => {
    const first = await call<{ secret: Record<string, string> }>(rest, "PUT", "/v1/secrets/API_TOKEN", { value: otherValue });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body.secret).sort()).toEqual(["createdAt", "name", "updatedAt", "updatedBy"]);
    const second = await call<{ secret: Record<string, string> }>(rest, "PUT", "/v1/secrets/API_TOKEN", { value });
    expect(second.body.secret).toMatchObject({ name: "API_TOKEN", createdAt: first.body.secret.createdAt, updatedBy: "person-a" });
    await call(rest, "PUT", "/v1/secrets/UNUSED", { value: "x" });
    const listed = await call<{ secrets: { name: string }[] }>(rest, "GET", "/v1/secrets");
    expect(listed.body.secrets.map((secret) => secret.name)).toEqual(["API_TOKEN", "UNUSED"]);
    // At rest: sealed, bound to the account, with the key that sealed it named.
    const row = await boxes
      .service()
      .db.secret.findUniqueOrThrow({ where: { accountId_name: { accountId: "acct-a", name: "API_TOKEN" } } });
    expect(Buffer.from(row.sealed).includes(Buffer.from(value))).toBe(false);
    expect(boxes.service().runtime.secretsKey.open("acct-a", "API_TOKEN", row.sealed)).toBe(value);
    expect(row.keyId).toBe(boxes.service().runtime.secretsKey.id);
  });

  it("when a secret's name, value or body is wrong, or the key may not write, then the REST answer says which", async () => {
    for (const [path, body] of [
      ["/v1/secrets/1BAD", { value: "x" }],
      ["/v1/secrets/has-dash", { value: "x" }],
      [`/v1/secrets/${"A".repeat(65)}`, { value: "x" }],
      ["/v1/secrets/OK", { value: "" }],
      ["/v1/secrets/OK", { value: "a\u0000b" }],
      ["/v1/secrets/OK", { value: "x", extra: 1 }],
      ["/v1/secrets/OK", {}],
    ] as const) {
      const response = await call<{ error: ErrorBody }>(rest, "PUT", path, body);
      expect(response.status, path).toBe(400);
      expect(response.body.error.code).toBe("invalid_argument");
    }
    expect((await call(rest, "PUT", "/v1/secrets/OK", { value: "v".repeat(32_768) })).status).toBe(200);
    expect((await call(rest, "PUT", "/v1/secrets/OK", { value: "v".repeat(32_769) })).status).toBe(400);
    await call(rest, "DELETE", "/v1/secrets/OK");
    const reader = restClient(stack.baseUrl, await stack.createKey({ scopes: ["boxes:read"] }));
    expect((await call(reader, "GET", "/v1/secrets")).status).toBe(200);
    expect((await call(reader, "PUT", "/v1/secrets/X", { value: "x" })).status).toBe(403);
    expect((await call(reader, "DELETE", "/v1/secrets/API_TOKEN")).status).toBe(403);
    expect((await call(restClient(stack.baseUrl, undefined), "GET", "/v1/secrets")).status).toBe(401);
  });

  it("when a workspace holds 100 secrets, then a 101st is refused while replacing one still works", async () => {
    const restC = restClient(stack.baseUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-c" }));
    for (let n = 0; n < 100; n++) expect((await restC("PUT", `/v1/secrets/S${n}`, { value: "x" })).status).toBe(200);
    const refused = await restC<{ error: ErrorBody }>("PUT", "/v1/secrets/ONE_MORE", { value: "x" });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "failed_precondition", details: { limit: 100 } });
    expect((await restC("PUT", "/v1/secrets/S0", { value: "y" })).status).toBe(200);
  });

  it("when create_box names a secret the workspace lacks, then not_found names it", async () => {
    const error = await toolError(client, "create_box", { name: "nope", secrets: ["API_TOKEN", "MISSING"] }, "not_found");
    expect(error.message).toContain("MISSING");
    expect(error.message).not.toContain("API_TOKEN");
    expect(error.details).toMatchObject({ secrets: ["MISSING"] });
  });

  it("when a box names a secret, then its setup, exec and start_job get it as an environment variable, and a call's own env wins", async () => {
    box = (
      await tool<{ box: Box }>(client, "create_box", {
        name: "with-secret",
        secrets: ["API_TOKEN"],
        setup: { cmd: `${printSha} > /data/home/setup-sha` },
      })
    ).box;
    expect(box.secrets).toEqual(["API_TOKEN"]);
    expect(box.stateReason).toBeNull();
    const setup = await tool<{ content: string }>(client, "read_file", { boxId: box.id, path: "setup-sha" });
    expect(setup.content).toBe(sha(value));
    expect((await tool<ExecResult>(client, "exec", { boxId: box.id, cmd: printSha })).stdout).toBe(sha(value));
    expect((await tool<ExecResult>(client, "exec", { boxId: box.id, argv: ["/usr/bin/printenv", "UNUSED"] })).exitCode).toBe(1);
    const own = await tool<ExecResult>(client, "exec", { boxId: box.id, cmd: printSha, env: { API_TOKEN: "mine" } });
    expect(own.stdout).toBe(sha("mine"));
    const { job } = await tool<{ job: Job }>(client, "start_job", { boxId: box.id, cmd: printSha, env: { OTHER: "1" } });
    expect(job.envNames).toEqual(["OTHER"]);
    const done = await tool<{ job: Job }>(client, "job_wait", { boxId: box.id, jobId: job.id, timeoutSeconds: 30 });
    expect(done.job.status).toBe("succeeded");
    expect((await tool<{ data: string }>(client, "job_logs", { boxId: box.id, jobId: job.id })).data).toBe(sha(value));
    // get_box and list_boxes show the names only.
    expect((await tool<{ box: Box }>(client, "get_box", { boxId: box.id })).box.secrets).toEqual(["API_TOKEN"]);
    const plain = (await tool<{ box: Box }>(client, "create_box", { name: "no-secret" })).box;
    expect((await tool<ExecResult>(client, "exec", { boxId: plain.id, argv: ["/usr/bin/printenv", "API_TOKEN"] })).exitCode).toBe(1);
    await tool(client, "delete_box", { boxId: plain.id, confirm: true });
  });

  it("when another account asks, then it neither lists nor uses the first account's secrets; its own same-named secret is its own", async () => {
    expect((await call<{ secrets: unknown[] }>(restB, "GET", "/v1/secrets")).body.secrets).toEqual([]);
    expect((await call(restB, "DELETE", "/v1/secrets/API_TOKEN")).status).toBe(404);
    await toolError(tenantB, "create_box", { name: "theirs", secrets: ["API_TOKEN"] }, "not_found");
    await call(restB, "PUT", "/v1/secrets/API_TOKEN", { value: otherValue });
    const theirs = (await tool<{ box: Box }>(tenantB, "create_box", { name: "theirs", secrets: ["API_TOKEN"] })).box;
    expect((await tool<ExecResult>(tenantB, "exec", { boxId: theirs.id, cmd: printSha })).stdout).toBe(sha(otherValue));
    expect((await tool<ExecResult>(client, "exec", { boxId: box.id, cmd: printSha })).stdout).toBe(sha(value));
    await toolError(tenantB, "exec", { boxId: box.id, cmd: "true" }, "not_found");
    await tool(tenantB, "delete_box", { boxId: theirs.id, confirm: true });
  });

  it("when a secret a box names is deleted, then commands there answer failed_precondition naming it, until it is set again", async () => {
    expect((await call(rest, "DELETE", "/v1/secrets/API_TOKEN")).body).toEqual({ name: "API_TOKEN", deleted: true });
    expect((await call(rest, "DELETE", "/v1/secrets/API_TOKEN")).status).toBe(404);
    const error = await toolError(client, "exec", { boxId: box.id, cmd: "true" }, "failed_precondition");
    expect(error.message).toContain("API_TOKEN");
    await toolError(client, "start_job", { boxId: box.id, cmd: "true" }, "failed_precondition");
    await call(rest, "PUT", "/v1/secrets/API_TOKEN", { value });
    expect((await tool<ExecResult>(client, "exec", { boxId: box.id, cmd: printSha })).stdout).toBe(sha(value));
  });

  it("when everything Bancada answered, logged and stored is searched, then neither value is anywhere but the sealed rows", async () => {
    const db = boxes.service().db;
    const dump = async (table: string) =>
      (await db.$queryRawUnsafe<{ row: string }[]>(`SELECT row_to_json(t)::text AS row FROM ${table} t`)).map((r) => r.row).join("\n");
    const stored = [
      await dump("boxes.boxes"),
      await dump("boxes.jobs"),
      await dump("boxes.box_intervals"),
      await dump("boxes.idempotency_keys"),
      await dump("gateway.tool_calls"),
    ].join("\n");
    expect(stored).toContain("with-secret");
    expect(logs.text().length).toBeGreaterThan(0);
    for (const secret of [value, otherValue]) {
      for (const [where, text] of [
        ["answers", seen.join("\n")],
        ["logs", logs.text()],
        ["tables", stored],
      ] as const)
        expect(text.includes(secret), `${where} hold a secret value`).toBe(false);
    }
  });
});
