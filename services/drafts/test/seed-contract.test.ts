/**
 * The product contract of sosoapi_list_content_drafts (docs/drafts.md#tools): the JSON Schemas are advertised
 * verbatim, the contract's example call and result validate against them, our zod schemas accept exactly the values the
 * JSON Schemas accept (as Ajv checks them in the gateway and in MCP clients), and the list tool's results
 * always match the output schema.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import type { Stack } from "@bancada/e2e";
import { listDraftsInput, listDraftsResult } from "../src/domain/schemas.js";
import { listDraftsInputJsonSchema, listDraftsOutputJsonSchema } from "../src/domain/seed-schemas.js";
import { seedDateTimePattern } from "../src/domain/json-formats.js";
import fixture from "./fixtures/seed-002.json" with { type: "json" };
import { draftsFactory, startDraftsStack } from "./stack.js";
import { callOverBus, closeAll, createDraft, fails, issuePaths, ok, person, workspace, type Page, type Person } from "./helpers.js";
import { inputCases, outputCases } from "./schema-cases.js";

const addFormats = addFormatsModule as unknown as <T>(ajv: T) => T;
/** As the gateway validates arguments (gateway/src/catalog.ts). */
const gatewayAjv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
/** As the MCP SDK client validates structured results (its default AjvJsonSchemaValidator). */
const clientAjv = addFormats(new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true }));

describe("the contract's JSON Schemas", () => {
  it("when the service's schemas are compared with the contract's, then they are the same, pattern included", () => {
    expect(listDraftsInputJsonSchema).toEqual(fixture.inputSchema);
    expect(listDraftsOutputJsonSchema).toEqual(fixture.outputSchema);
    expect(JSON.stringify(listDraftsOutputJsonSchema)).toBe(JSON.stringify(fixture.outputSchema));
    const patterns = JSON.stringify(fixture).match(/"pattern":"(?:[^"\\]|\\.)*"/g) ?? [];
    expect(patterns.length).toBe(4);
    for (const pattern of patterns) expect(JSON.parse(`{${pattern}}`).pattern).toBe(seedDateTimePattern);
  });

  it("when the gateway's Ajv 2020 compiles the input schema and the client's Ajv compiles the output schema (draft-07 $schema), then both compile", () => {
    expect(() => gatewayAjv.compile(fixture.inputSchema)).not.toThrow();
    expect(() => clientAjv.compile(fixture.inputSchema)).not.toThrow();
    expect(() => clientAjv.compile(fixture.outputSchema)).not.toThrow();
  });

  it("when the contract's example call and example result are validated, then the contract's schemas and our zod schemas accept them", () => {
    expect(fixture.exampleCall.name).toBe("sosoapi_list_content_drafts");
    expect(gatewayAjv.validate(fixture.inputSchema, fixture.exampleCall.arguments)).toBe(true);
    expect(clientAjv.validate(fixture.outputSchema, fixture.exampleResult)).toBe(true);
    expect(listDraftsInput.safeParse(fixture.exampleCall.arguments).success).toBe(true);
    expect(listDraftsResult.parse(fixture.exampleResult)).toEqual(fixture.exampleResult);
  });

  it("when edge-case arguments are checked, then zod accepts exactly what the contract's input schema accepts", () => {
    const asGateway = gatewayAjv.compile(fixture.inputSchema);
    const asClient = clientAjv.compile(fixture.inputSchema);
    const cases = inputCases();
    let accepted = 0;
    for (const value of cases) {
      const expected = asGateway(value);
      expect(asClient(value), JSON.stringify(value)).toBe(expected);
      expect(listDraftsInput.safeParse(value).success, JSON.stringify(value)).toBe(expected);
      if (expected) accepted++;
    }
    expect(accepted).toBeGreaterThan(15);
    expect(cases.length - accepted).toBeGreaterThan(40);
  });

  it("when edge-case results are checked, then zod accepts exactly what the contract's output schema accepts", () => {
    const validate = clientAjv.compile(fixture.outputSchema);
    const cases = outputCases();
    let accepted = 0;
    for (const value of cases) {
      const expected = validate(value);
      expect(listDraftsResult.safeParse(value).success, JSON.stringify(value).slice(0, 300)).toBe(expected);
      if (expected) accepted++;
    }
    expect(accepted).toBeGreaterThan(20);
    expect(cases.length - accepted).toBeGreaterThan(60);
  });
});

describe("the list tool as advertised and called", () => {
  let stack: Stack;
  let ana: Person;
  /** A viewer whose client has listed the tools, so the SDK checks every result against the output schemas. */
  let bia: Person;
  let ws: string;
  beforeAll(async () => {
    stack = await startDraftsStack({ services: { drafts: draftsFactory() }, gateway: { outputSchemas: true } });
    ana = await person(stack);
    bia = await person(stack);
    ws = await workspace(ana, [[bia, "viewer"]]);
    await bia.client.listTools();
  });
  afterAll(async () => {
    await closeAll(ana, bia);
    await stack?.stop();
  });

  it("when tools/list is read with output schemas on, then the list tool advertises the contract's input and output schemas verbatim and its annotations", async () => {
    const { tools } = await ana.client.listTools();
    const tool = tools.find((candidate) => candidate.name === "sosoapi_list_content_drafts")!;
    expect(tool.inputSchema).toEqual(fixture.inputSchema);
    expect(tool.outputSchema).toEqual(fixture.outputSchema);
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    expect(gatewayAjv.validate(tool.inputSchema, fixture.exampleCall.arguments)).toBe(true);
    expect(clientAjv.validate(tool.outputSchema!, fixture.exampleResult)).toBe(true);
  });

  it("when the contract's example call is made in a real workspace, then the result validates against the advertised output schema", async () => {
    await createDraft(ana.client, ws, { caption: "An unfinished announcement for team review." });
    await createDraft(ana.client, ws, { caption: "x".repeat(2_200), account_ids: ["x:acme"] });
    const { tools } = await ana.client.listTools();
    const outputSchema = tools.find((tool) => tool.name === "sosoapi_list_content_drafts")!.outputSchema!;
    const page = await ok<Page>(ana.client, "sosoapi_list_content_drafts", { ...fixture.exampleCall.arguments, workspace_id: ws });
    expect(page.returned_count).toBe(2);
    expect(page.drafts[0]!.caption_preview).toBe("x".repeat(500));
    expect(clientAjv.validate(outputSchema, page), JSON.stringify(clientAjv.errors)).toBe(true);
    expect(clientAjv.validate(fixture.outputSchema, page)).toBe(true);
  });

  it("when the cursor carries 2023-02-29 (the contract's pattern rejects it), then the gateway answers invalid_argument naming cursor.updated_at", async () => {
    const error = await fails(
      bia.client,
      "sosoapi_list_content_drafts",
      { workspace_id: ws, cursor: { updated_at: "2023-02-29T00:00:00Z", id: randomUUID() } },
      "invalid_argument",
    );
    expect(issuePaths(error)).toContain("cursor.updated_at");
  });

  it("when the same bad cursor reaches the service directly (past the gateway), then the service's own check answers invalid_argument too", async () => {
    const answer = await callOverBus(
      stack,
      ana.key,
      "sosoapi_list_content_drafts",
      { workspace_id: ws, cursor: { updated_at: "2023-02-29T00:00:00Z", id: randomUUID() } },
      "http",
    );
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe("invalid_argument");
    expect(issuePaths(answer.error)).toContain("cursor.updated_at");
  });

  it("when limit is 50 the call passes and when it is 51 or 0 it is invalid_argument naming limit", async () => {
    expect((await ok<Page>(ana.client, "sosoapi_list_content_drafts", { workspace_id: ws, limit: 50 })).returned_count).toBe(2);
    for (const limit of [51, 0]) {
      expect(issuePaths(await fails(bia.client, "sosoapi_list_content_drafts", { workspace_id: ws, limit }, "invalid_argument"))).toContain(
        "limit",
      );
    }
  });
});
