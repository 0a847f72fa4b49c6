/** The development key holds every scope: a saved one made before scopes were added is replaced, a current one kept. */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KeyStore, createGatewayDb, gatewayScopes, migrateGateway } from "@bancada/gateway";
import { registeredScopes } from "@bancada/service-registry";
import { freshDatabase, type TestDatabase } from "@bancada/testkit";
import { developmentKey } from "../src/dev-key.js";

/** Every scope a key may hold: the services' (their package.json) and the gateway's. */
const scopes = [...registeredScopes(), ...gatewayScopes];

describe("the development key", () => {
  let database: TestDatabase;
  let db: ReturnType<typeof createGatewayDb>;
  let keys: KeyStore;
  let dataDir: string;
  beforeAll(async () => {
    database = await freshDatabase();
    await migrateGateway(database.url);
    db = createGatewayDb(database.url);
    keys = new KeyStore(db, { pepper: "test-pepper", serviceScopes: registeredScopes(), cacheMs: 0 });
    dataDir = await mkdtemp(path.join(tmpdir(), "bancada-dev-key-"));
  });
  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("when the saved key holds every scope, then it is kept; when it lacks one added since, then a new key with all of them replaces it", async () => {
    const first = await developmentKey(keys, dataDir);
    expect(first.created).toBe(true);
    expect(await developmentKey(keys, dataDir)).toEqual({ key: first.key, created: false });

    const old = await keys.create({
      accountId: "local",
      personId: "me",
      agentId: "dev",
      scopes: scopes.filter((scope) => !scope.startsWith("keys:")),
      allowWrites: true,
      allowedBoardIds: null,
    });
    await writeFile(path.join(dataDir, "dev-key.json"), JSON.stringify({ key: old.key, id: old.record.id }));
    const replaced = await developmentKey(keys, dataDir);
    expect(replaced.created).toBe(true);
    expect(replaced.key).not.toBe(old.key);
    expect([...(await keys.resolve(replaced.key))!.scopes].sort()).toEqual([...scopes].sort());
    expect(JSON.parse(await readFile(path.join(dataDir, "dev-key.json"), "utf8")).key).toBe(replaced.key);
    // the older key is not revoked: a client configured with it keeps working with its scopes
    expect(await keys.resolve(old.key)).not.toBeNull();
  });
});
