// A service owns its scopes (here a "notes" service holding the scripts scopes, a real pair): a tool of its own may require only a scope the service declares (or none), and a start
// with any other fails naming the tool and the scope, leaving nothing running.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Router } from "express";
import { z } from "zod";
import { noScope, subjects as makeSubjects, type ToolScope } from "@bancada/contracts";
import { freshDatabase, type TestDatabase } from "@bancada/testkit";
import { createLogger, defineService, defineTool, MemoryBus } from "../src/index.js";

/** An empty folder: the services here have no tables. */
let migrationsDir = "";

function serviceWithTool(scope: ToolScope) {
  const disconnected: boolean[] = [];
  const service = defineService()({
    name: "notes",
    scopes: ["scripts:read", "scripts:write"],
    version: "0.1.0",
    instructions: "Notes.",
    prisma: { schema: "notes", migrationsDir, createClient: () => ({ $disconnect: async () => void disconnected.push(true) }) },
    tools: () => [
      defineTool({
        name: "read_note",
        description: "Reads a note.",
        input: z.strictObject({}),
        output: z.object({}),
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        scope,
        handler: async () => ({}),
      }),
    ],
    routes: () => Router(),
  });
  return { service, disconnected };
}

describe("a service's scopes", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase();
    migrationsDir = await mkdtemp(path.join(tmpdir(), "bancada-no-migrations-"));
  });
  afterAll(async () => {
    await database?.drop();
    await rm(migrationsDir, { recursive: true, force: true });
  });

  const start = (scope: ToolScope) => {
    const { service, disconnected } = serviceWithTool(scope);
    const options = {
      databaseUrl: database.url,
      bus: new MemoryBus(),
      subjects: makeSubjects("scopes"),
      log: createLogger("test", "silent"),
    };
    return { started: service.start({ ...options }), disconnected, service };
  };

  it("are the declaration's, for whoever runs the service", () => {
    expect(serviceWithTool("scripts:read").service.scopes).toEqual(["scripts:read", "scripts:write"]);
  });

  it("let a tool require one of them, or none", async () => {
    for (const scope of ["scripts:read", noScope] as const) {
      const { started } = start(scope);
      const running = await started;
      expect(running.host).toBeDefined();
      await running.stop();
    }
  });

  it("refuse a start whose tool requires a scope the service does not declare, naming both, and close the client", async () => {
    const { started, disconnected } = start("boxes:read");
    await expect(started).rejects.toThrow(
      "notes: the tool read_note requires boxes:read, which the service does not declare in its scopes",
    );
    expect(disconnected).toEqual([true]);
  });
});
