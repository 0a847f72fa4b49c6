/**
 * How keys are stored: HMAC-SHA256(pepper, SHA-256(key)), so the gateway can resolve a REST caller from the
 * SHA-256 the service sends. A row from before (SHA-256(pepper || key)) is rehashed the first time the key is
 * seen in clear, and from then on resolves from its digest too.
 */
import { createHash, createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeyDigest } from "@bancada/service-kit";
import { startStack, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./fixtures.js";

const pepper = "key-hash-test-pepper";

describe("stored key hashes", () => {
  let stack: Stack;
  const row = async (id: string) => {
    const { keyHash, hashScheme } = await stack.gateway.db.apiKey.findUniqueOrThrow({ where: { id } });
    return { keyHash, hashScheme };
  };
  const idOf = async (key: string) => (await stack.gateway.keys.list()).find((record) => key.startsWith(record.prefix))!.id;
  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory }, gateway: { keyPepper: pepper } });
  });
  afterAll(async () => stack?.stop());

  it("when a key is created, then its row holds HMAC(pepper, SHA-256(key)) and the digest alone resolves it", async () => {
    const key = await stack.createKey();
    const stored = await row(await idOf(key));
    expect(stored).toEqual({ keyHash: createHmac("sha256", pepper).update(apiKeyDigest(key)).digest("hex"), hashScheme: "hmac-digest" });
    expect((await stack.gateway.keys.resolveDigest(apiKeyDigest(key)))?.accountId).toBe("acct-a");
    expect(await stack.gateway.keys.resolveDigest(apiKeyDigest(`${key}x`))).toBeNull();
  });

  it("when a row is in the old scheme, then its digest does not resolve until the key is seen in clear once; then the row is rehashed", async () => {
    const key = await stack.createKey({ accountId: "acct-old" });
    const id = await idOf(key);
    const legacy = createHash("sha256").update(pepper).update(key).digest("hex");
    await stack.gateway.db.apiKey.update({ where: { id }, data: { keyHash: legacy, hashScheme: "pepper-key" } });
    const rest = () => fetch(`${stack.baseUrl}/v1/scripts`, { headers: { authorization: `Bearer ${key}` } });
    expect(await stack.gateway.keys.resolveDigest(apiKeyDigest(key))).toBeNull();
    expect((await stack.gateway.keys.resolve(key))?.accountId).toBe("acct-old");
    expect(await row(id)).toEqual({
      keyHash: createHmac("sha256", pepper).update(apiKeyDigest(key)).digest("hex"),
      hashScheme: "hmac-digest",
    });
    expect((await stack.gateway.keys.resolveDigest(apiKeyDigest(key)))?.accountId).toBe("acct-old");
    expect((await rest()).status).toBe(200);
  });

  it("when unknown bnc_ keys are presented, then no UPDATE reaches the database (a failed guess costs a read, never a write)", async () => {
    // a statement-level trigger fires for every UPDATE statement on the table, even one that matches no row
    await stack.gateway.db.$executeRawUnsafe("CREATE TABLE gateway.update_statements (at timestamptz NOT NULL DEFAULT now())");
    await stack.gateway.db.$executeRawUnsafe(
      "CREATE FUNCTION gateway.note_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO gateway.update_statements DEFAULT VALUES; RETURN NULL; END $$",
    );
    await stack.gateway.db.$executeRawUnsafe(
      "CREATE TRIGGER note_update BEFORE UPDATE ON gateway.api_keys FOR EACH STATEMENT EXECUTE FUNCTION gateway.note_update()",
    );
    try {
      for (let i = 0; i < 5; i++) expect(await stack.gateway.keys.resolve(`bnc_made_up_guess_${i}_${"a".repeat(20)}`)).toBeNull();
      const unknownKey = await fetch(`${stack.baseUrl}/mcp`, {
        method: "POST",
        headers: { authorization: "Bearer bnc_another_made_up_key" },
      });
      expect(unknownKey.status).toBe(401);
      const [{ count }] = await stack.gateway.db.$queryRawUnsafe<[{ count: bigint }]>(
        "SELECT count(*) AS count FROM gateway.update_statements",
      );
      expect(Number(count)).toBe(0);
    } finally {
      await stack.gateway.db.$executeRawUnsafe("DROP TRIGGER note_update ON gateway.api_keys");
    }
  });
});
