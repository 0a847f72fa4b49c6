/** A service run alone serves its own OpenAPI document on its REST port, read from the routes it declared. */
import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:http";
import { Router } from "express";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restAccess } from "@bancada/contracts";
import { createLogger, createServiceApp, declaredRoutes, mountRoutes, openApiDocument, restRoutes, routeTable } from "../src/index.js";

describe("a service's own OpenAPI document", () => {
  let server: Server;
  let base: string;
  const router = Router();
  const thingInput = z.strictObject({ thingId: z.guid(), name: z.string().min(1).max(10) });
  restRoutes(router).put(
    "/v1/things/:thingId",
    { summary: "Rename a thing", access: restAccess({ scope: "boards:write", writes: true }), body: thingInput },
    (req, res) => void res.json(thingInput.parse({ ...req.body, thingId: req.params.thingId })),
  );
  router.get("/v1/undeclared", (_req, res) => void res.json({}));
  const app = createServiceApp({
    routes: [router],
    // no key is known: the document must not need one
    resolver: { resolve: async () => null },
    log: createLogger("test", "silent"),
    guards: { bindHost: "127.0.0.1", allowedHosts: [], allowedOrigins: [] },
    api: { title: "Things", version: "7" },
  });
  beforeAll(async () => {
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("when fetched without a key, then it lists the declared route with its path parameter, body (path fields left out) and scope", async () => {
    const response = await fetch(`${base}/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { info: unknown; paths: Record<string, Record<string, Record<string, unknown>>> };
    expect(document.info).toEqual({ title: "Things", version: "7" });
    const operation = document.paths["/v1/things/{thingId}"]!.put!;
    expect(operation).toMatchObject({ summary: "Rename a thing", "x-bancada-scope": "boards:write", "x-bancada-writes": true });
    expect(operation.parameters).toEqual([
      { name: "thingId", in: "path", required: true, schema: expect.objectContaining({ type: "string" }) },
    ]);
    expect(operation.requestBody).toMatchObject({
      content: {
        "application/json": { schema: { type: "object", properties: { name: { type: "string", maxLength: 10 } }, required: ["name"] } },
      },
    });
    // a key is still needed for the route itself
    expect((await fetch(`${base}/v1/things/x`, { method: "PUT" })).status).toBe(401);
  });

  it("when a route was added without a declaration, then the route table shows it undocumented (and the document leaves it out)", async () => {
    const undocumented = routeTable([app]).filter((entry) => !entry.declaration);
    expect(undocumented.map((entry) => `${entry.method} ${entry.path}`)).toContain("get /v1/undeclared");
    const document = (await (await fetch(`${base}/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(document.paths["/v1/undeclared"]).toBeUndefined();
  });

  it("when routers are mounted in routers with mountRoutes, then the document has their declared routes, read from the declarations alone", () => {
    const inner = Router();
    restRoutes(inner).get("/v1/inner", { summary: "Inner", access: "key" }, (_req, res) => void res.json({}));
    const outer = Router();
    restRoutes(outer).delete("/v1/outer/:id", { summary: "Outer", access: "key", status: 204 }, (_req, res) => void res.end());
    mountRoutes(outer, inner);
    expect(declaredRoutes([outer]).map((route) => `${route.method} ${route.path}`)).toEqual(["delete /v1/outer/:id", "get /v1/inner"]);
    const document = openApiDocument({ title: "T", version: "1" }, [outer]) as {
      paths: Record<string, Record<string, { summary: string }>>;
    };
    expect(document.paths["/v1/inner"]!.get!.summary).toBe("Inner");
    expect(document.paths["/v1/outer/{id}"]!.delete!.summary).toBe("Outer");
    // a router only used, never mounted with mountRoutes, is not served by its parent as far as the document knows
    const stray = Router();
    restRoutes(stray).get("/v1/stray", { summary: "Stray", access: "key" }, (_req, res) => void res.json({}));
    outer.use(stray);
    expect(declaredRoutes([outer]).map((route) => route.path)).not.toContain("/v1/stray");
    expect(routeTable([outer as never]).find((entry) => entry.path === "/v1/stray")?.declaration).toBeUndefined();
  });
});
