// A service's own variables are declared by the service (@bancada/boxes: boxesEnvFields, boxesEnvRefusal,
// boxesCommandOptions) and validated by the command with every other variable, at start, in one message.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadEnv, UsageError } from "../src/env.js";
import { serviceNamed, type ServiceDeps } from "../src/services.js";

const key = Buffer.alloc(32, "service-env-test").toString("base64");

describe("a service's own variables", () => {
  it("are validated with the command's: a sealing key of 32 bytes passes, 31 is refused naming the variable", () => {
    expect((loadEnv({ BOXES_SECRETS_KEY: key }) as Record<string, unknown>).BOXES_SECRETS_KEY).toBe(key);
    expect(() => loadEnv({ BOXES_SECRETS_KEY: Buffer.alloc(31, 1).toString("base64") })).toThrow(UsageError);
    expect(() => loadEnv({ BOXES_SECRETS_KEY: Buffer.alloc(31, 1).toString("base64") })).toThrow(
      /BOXES_SECRETS_KEY: must be 32 random bytes/,
    );
    expect(() => loadEnv({ BOXES_PUBLIC_URL: "ftp://boxes.example.com" })).toThrow(/BOXES_PUBLIC_URL: must be the http\(s\) URL/);
  });

  it("refuse a real database without a sealing key, and allow the embedded one", () => {
    const boxes = serviceNamed("boxes")!;
    expect(boxes.refusal(loadEnv({}))).toBeUndefined();
    expect(boxes.refusal(loadEnv({ DATABASE_URL: "postgres://db/bancada" }))).toMatch(/^Set BOXES_SECRETS_KEY \(32 random bytes/);
    expect(boxes.refusal(loadEnv({ BOXES_DATABASE_URL: "postgres://db/boxes" }))).toMatch(/^Set BOXES_SECRETS_KEY/);
    expect(boxes.refusal(loadEnv({ DATABASE_URL: "postgres://db/bancada", BOXES_SECRETS_KEY: key }))).toBeUndefined();
    expect(serviceNamed("scripts")!.refusal(loadEnv({ DATABASE_URL: "postgres://db/bancada" }))).toBeUndefined();
  });

  it("become the service's options: its data folder, one replica's public URL over the gateway's, the key", async () => {
    const { boxesCommandOptions } = await import("@bancada/boxes");
    const env = loadEnv({
      BANCADA_DATA_DIR: "/var/lib/bancada",
      BANCADA_PUBLIC_URL: "https://bancada.example.com",
      BOXES_SECRETS_KEY: key,
    });
    expect(boxesCommandOptions(env, { embedded: false } satisfies Pick<ServiceDeps, "embedded">)).toEqual({
      dataDir: path.join("/var/lib/bancada", "boxes"),
      publicUrl: "https://bancada.example.com",
      sshPortFallback: false,
      secretsKey: key,
    });
    const replica = loadEnv({ BANCADA_PUBLIC_URL: "https://bancada.example.com", BOXES_PUBLIC_URL: "https://node-1.example.com" });
    expect(boxesCommandOptions(replica, { embedded: true })).toMatchObject({
      publicUrl: "https://node-1.example.com",
      sshPortFallback: true,
    });
    expect(boxesCommandOptions(loadEnv({}), { embedded: true })).not.toHaveProperty("secretsKey");
  });
});
