/**
 * BANCADA_PUBLIC_URL is where people open the web console. No tool creates a board, so the boards service, as this
 * command starts it (services.ts), names that address to an agent whose key reaches no board; a value that is not an
 * http(s) URL stops the start.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subjects } from "@bancada/contracts";
import { MemoryBus, createLogger, createToolMetrics } from "@bancada/service-kit";
import { freshDatabase, type TestDatabase } from "@bancada/testkit";
import { loadEnv } from "../src/env.js";
import { serviceNamed, type RunningService } from "../src/services.js";

describe("BANCADA_PUBLIC_URL", () => {
  let database: TestDatabase;
  let boards: RunningService;

  beforeAll(async () => {
    database = await freshDatabase("bancada_public_url");
    boards = await serviceNamed("boards")!.start({
      databaseUrl: database.url,
      bus: new MemoryBus(),
      subjects: subjects("public-url-test"),
      log: createLogger("public-url-test", "silent"),
      metrics: createToolMetrics("public-url-test"),
      env: loadEnv({ BANCADA_PUBLIC_URL: "https://bancada.example.org" }),
      embedded: false,
    });
  }, 60_000);
  afterAll(async () => {
    await boards?.stop();
    await database?.drop();
  });

  it("when it is set, then the boards service bancada starts sends people to the console's Boards page there to create a board", () => {
    const listBoards = boards.host.catalog.tools.find((tool) => tool.name === "list_boards");
    expect(listBoards?.description).toContain('created by people in the web console at https://bancada.example.org/#/boards ("New board")');
  });

  it("when it is not an http(s) URL, then the configuration is refused naming the variable", () => {
    for (const value of ["ftp://bancada.example.org", "bancada.example.org"]) {
      expect(() => loadEnv({ BANCADA_PUBLIC_URL: value })).toThrow(
        /BANCADA_PUBLIC_URL: must be the http\(s\) URL people open the console at/,
      );
    }
  });

  it("when a service's internal URL is not an http URL, then the configuration is refused naming the variable", () => {
    for (const value of ["https://scripts:8788", "scripts:8788"]) {
      expect(() => loadEnv({ SCRIPTS_INTERNAL_URL: value })).toThrow(
        /SCRIPTS_INTERNAL_URL: must be the http:\/\/ URL of the service's own port, as the gateway reaches it/,
      );
    }
    expect(loadEnv({ BOXES_INTERNAL_URL: "http://boxes:8792" }).BOXES_INTERNAL_URL).toBe("http://boxes:8792");
  });
});
