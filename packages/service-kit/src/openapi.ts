/**
 * The OpenAPI 3.1 document of what one HTTP app answers, read from its routes' declarations (rest-routes.ts): each
 * declared route with its path parameters, query, body (JSON Schema 2020-12 from the route's own zod schemas,
 * which OpenAPI 3.1 takes as they are), the caller it needs (`x-bancada-scope`, `x-bancada-writes`) and the
 * shared error envelope. Routes without a declaration (health, metrics, /mcp, the console) are not REST API
 * and are left out.
 */
import type { RequestHandler } from "express";
import { z } from "zod";
import { errorCodes, errorEnvelope, httpStatusOf, noScope } from "@bancada/contracts";
import { declaredRoutes, type DeclaredRoute, type RouteDeclaration } from "./rest-routes.js";

export const openApiPath = "/v1/openapi.json";

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

type JsonObject = Record<string, unknown>;

const errorResponse = { $ref: "#/components/responses/Error" };

/** The document of the routes declared on `sources` (apps or routers) and the routers mounted in them. */
export function openApiDocument(info: OpenApiInfo, sources: readonly object[]): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const route of declaredRoutes(sources)) {
    (paths[openApiPathOf(route.path)] ??= {})[route.method] = operationOf(route, route.declaration);
  }
  return {
    openapi: "3.1.0",
    info,
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "An API key: `Authorization: Bearer bnc_…`." },
        adminToken: { type: "http", scheme: "bearer", description: "The operator's BANCADA_ADMIN_TOKEN." },
      },
      schemas: { Error: schemaOf(errorEnvelope, "output") },
      responses: {
        Error: {
          description: `The error envelope; the HTTP status follows the code (${errorCodes.map((code) => `${code} ${httpStatusOf[code]}`).join(", ")}).`,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
    },
  };
}

/** `GET /v1/openapi.json`: public (it describes the API's shape, no data), made once on the first request. */
export function openApiRoute(info: OpenApiInfo, sources: () => readonly object[]): RequestHandler {
  let document: JsonObject | undefined;
  return (_req, res) => {
    document ??= openApiDocument(info, sources());
    res.json(document);
  };
}

/** The declaration of the document's own route (so the route table shows it as documented). */
export const openApiDeclaration: RouteDeclaration = {
  summary: "This OpenAPI 3.1 document (no key needed)",
  access: "public",
  responseDescription: "The OpenAPI document of every REST route this port serves.",
};

/** Express patterns to OpenAPI templates: `:id` → `{id}`, `*path` → `{path}`. */
export function openApiPathOf(path: string): string {
  return path.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
}

function operationOf(entry: DeclaredRoute, declaration: RouteDeclaration): JsonObject {
  const pathNames = [...entry.path.matchAll(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!);
  const status = declaration.status ?? 200;
  return {
    summary: declaration.summary,
    ...(declaration.description ? { description: declaration.description } : {}),
    operationId: operationIdOf(entry),
    ...callerOf(declaration),
    parameters: [
      ...pathNames.map((name) => parameter(name, "path", true, propertyOf(declaration.params, name) ?? { type: "string" })),
      ...queryParameters(declaration.query),
      ...Object.entries(declaration.headers ?? {}).map(([name, description]) => ({
        ...parameter(name, "header", false, { type: "string" }),
        description,
      })),
    ],
    ...(declaration.body ? { requestBody: requestBodyOf(declaration.body, [...pathNames, ...(declaration.notInBody ?? [])]) } : {}),
    responses: {
      [String(status)]: successOf(status, declaration),
      default: errorResponse,
    },
  };
}

function callerOf(declaration: RouteDeclaration): JsonObject {
  const { access } = declaration;
  if (access === "public") return { security: [] };
  if (access === "signed") return { security: [], "x-bancada-access": "a signed link (no key)" };
  if (access === "admin") return { security: [{ adminToken: [] }] };
  if (access === "key") return { security: [{ apiKey: [] }] };
  const writes = "writes" in access ? access.writes : !access.annotations.readOnlyHint;
  return {
    security: [{ apiKey: [] }],
    ...(access.scope !== noScope ? { "x-bancada-scope": access.scope } : {}),
    "x-bancada-writes": writes,
  };
}

function successOf(status: number, declaration: RouteDeclaration): JsonObject {
  const description = declaration.responseDescription ?? (status === 204 ? "Done; no body." : "The result.");
  if (status === 204) return { description };
  if (declaration.response === "bytes") return { description, content: { "application/octet-stream": { schema: {} } } };
  return { description, content: { "application/json": { schema: declaration.response ? schemaOf(declaration.response, "output") : {} } } };
}

function requestBodyOf(body: z.ZodType | "bytes", filledByRoute: readonly string[]): JsonObject {
  if (body === "bytes") return { required: true, content: { "application/octet-stream": { schema: {} } } };
  const schema = schemaOf(body, "input");
  const properties = schema.properties as JsonObject | undefined;
  if (properties) {
    for (const name of filledByRoute) delete properties[name];
    if (Array.isArray(schema.required)) {
      schema.required = (schema.required as string[]).filter((name) => !filledByRoute.includes(name));
      if ((schema.required as string[]).length === 0) delete schema.required;
    }
  }
  return { required: true, content: { "application/json": { schema } } };
}

function queryParameters(query: z.ZodType | undefined): JsonObject[] {
  if (!query) return [];
  const schema = schemaOf(query, "input");
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties as Record<string, JsonObject> | undefined) ?? {}).map(([name, property]) =>
    parameter(name, "query", required.has(name), property),
  );
}

function parameter(name: string, where: "path" | "query" | "header", required: boolean, schema: unknown): JsonObject {
  return { name, in: where, required, schema };
}

function propertyOf(schema: z.ZodType | undefined, name: string): unknown {
  if (!schema) return undefined;
  return (schemaOf(schema, "input").properties as JsonObject | undefined)?.[name];
}

/** A zod schema as JSON Schema 2020-12 (an OpenAPI 3.1 schema object); what JSON cannot say becomes `{}`. */
function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonObject;
  return rest;
}

function operationIdOf(entry: DeclaredRoute): string {
  const words = entry.path
    .split("/")
    .filter((part) => part && part !== "v1")
    .map((part) => part.replace(/^[:*]/, "by-").replace(/[^A-Za-z0-9]+/g, "-"));
  return [entry.method, ...words]
    .join("-")
    .replace(/-+(.)/g, (_m, c: string) => c.toUpperCase())
    .replace(/-$/, "");
}
