/**
 * `GET /v1/openapi.json`: one OpenAPI 3.1 document of every REST route the port serves, valid per a standard
 * validator, read from the same route table express answers from, so a route added without a declaration fails here.
 */
import { readFile, writeFile } from "node:fs/promises";
import { Validator } from "@seriousme/openapi-schema-validator";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiPathOf } from "@bancada/service-kit";
import { startInProcess, type InProcess } from "./in-process.js";

type Document = {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: unknown; security?: unknown[]; "x-bancada-scope"?: string }>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
};

/** What this port answers that is not the REST API: operations, MCP, OAuth hints, the console. */
const notRest = /^\/(healthz|readyz|metrics|mcp|register|oauth\/|\.well-known\/|index\.html|favicon\.svg|$)/;

describe("the OpenAPI document", { timeout: 240_000 }, () => {
  let stack: InProcess;
  let document: Document;
  beforeAll(async () => {
    stack = await startInProcess();
    const response = await fetch(`${stack.baseUrl}/v1/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as Document;
  });
  afterAll(async () => stack?.stop());

  it("when fetched without a key, then it is an OpenAPI 3.1 document a standard validator accepts, its references resolving", async () => {
    expect(document.openapi).toBe("3.1.0");
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it("when the gateway's route table is read, then every REST route of every service and of the gateway is in the document", () => {
    const rest = stack.runtime.gateway!.routeTable().filter((entry) => !notRest.test(entry.path));
    const undocumented = rest.filter((entry) => !entry.declaration).map((entry) => `${entry.method} ${entry.path}`);
    expect(undocumented).toEqual([]);
    const missing = rest.filter((entry) => !document.paths[openApiPathOf(entry.path)]?.[entry.method]);
    expect(missing.map((entry) => `${entry.method} ${entry.path}`)).toEqual([]);
    // each service's routes are there (one sample each), and the gateway's own
    for (const path of [
      "/v1/scripts",
      "/v1/boards",
      "/v1/search",
      "/v1/workspaces",
      "/v1/boxes",
      "/v1/audit",
      "/v1/keys",
      "/v1/openapi.json",
    ]) {
      expect(document.paths[path], path).toBeDefined();
    }
    expect(rest.length).toBeGreaterThan(80);
  });

  it("when an operation takes a body (POST, PUT, PATCH), then its requestBody is in the document", () => {
    const without: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (["post", "put", "patch"].includes(method) && !operation.requestBody && !bodiless.has(`${method} ${path}`)) {
          without.push(`${method} ${path}`);
        }
      }
    }
    expect(without).toEqual([]);
  });

  it("when an operation needs a key, then it names the bearer scheme and its scope; the error envelope is one shared component", () => {
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.components.schemas.Error).toMatchObject({ type: "object", required: ["error"] });
    expect(document.paths["/v1/scripts"]!.post).toMatchObject({ security: [{ apiKey: [] }], "x-bancada-scope": "scripts:write" });
    expect(document.paths["/v1/audit"]!.get).toMatchObject({ "x-bancada-scope": "audit:read" });
    expect(document.paths["/v1/openapi.json"]!.get!.security).toEqual([]);
    const body = document.paths["/v1/scripts/{id}"]!.put!.requestBody as { content: Record<string, { schema: { properties: object } }> };
    // the id comes from the path and the revision from If-Match: neither is asked for in the body
    expect(Object.keys(body.content["application/json"]!.schema.properties)).not.toContain("id");
    expect(Object.keys(body.content["application/json"]!.schema.properties)).not.toContain("revision");
  });

  it("when the console's API types are compared with what openapi-typescript makes of this document, then they are current", async () => {
    // BANCADA_WRITE_API_TYPES=1 writes them (after a route's declaration changed); the console's typecheck then says what broke
    const made = await consoleApiTypes(document);
    if (process.env.BANCADA_WRITE_API_TYPES === "1") await writeFile(consoleApiTypesFile, made);
    expect(
      await readFile(consoleApiTypesFile, "utf8"),
      "console/src/api-types.ts is stale: run this test with BANCADA_WRITE_API_TYPES=1",
    ).toBe(made);
  });
});

const consoleApiTypesFile = new URL("../../console/src/api-types.ts", import.meta.url);

/** The console's types of every REST route: openapi-typescript's output for the document, under a line saying so. */
async function consoleApiTypes(document: Document): Promise<string> {
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0]);
  const header = "// Generated from GET /v1/openapi.json by cli/test/openapi.test.ts (openapi-typescript); do not edit.\n";
  return header + astToString(ast);
}

/** Actions whose path says everything (the proposal review, key revocation): no body to describe. */
const bodiless = new Set([
  "post /v1/grants/{id}/revoke",
  "post /v1/boards/{boardId}/proposals/{proposalId}/suggestions/{suggestionId}/apply",
  "post /v1/boards/{boardId}/proposals/{proposalId}/suggestions/{suggestionId}/reject",
  "post /v1/boards/{boardId}/proposals/{proposalId}/close-summary",
  "post /v1/boards/{boardId}/proposals/{proposalId}/dismiss",
  "post /v1/boards/{boardId}/proposals/{proposalId}/apply-all",
  "post /v1/boards/{boardId}/proposals/{proposalId}/reject-all",
  "post /v1/keys/{id}/revoke",
  "post /admin/keys/{id}/revoke",
]);
