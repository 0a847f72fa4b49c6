/**
 * The mixed mode: NATS_URL set, no DATABASE_URL. `start --only gateway` and `start --only scripts` run as
 * two processes on one data folder; the first starts the embedded PostgreSQL, the second shares it, and
 * MCP calls reach the scripts process through the gateway over NATS, with bus keys of one master kept in that
 * folder (a folder from before, holding an Ed25519 pair, gets a new master).
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { access, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { embeddedServerAnswers } from "@bancada/embedded-db";
import { callTool, connectClient } from "@bancada/testkit";
import { eventually, launch, stop } from "./start-bancada.js";

const natsUrl = process.env.NATS_URL;

describe.skipIf(!natsUrl)(
  "two processes on one embedded PostgreSQL (skipped without NATS_URL: the processes meet over NATS)",
  { timeout: 240_000 },
  () => {
    const children: ChildProcessWithoutNullStreams[] = [];
    let dataDir: string | undefined;
    afterAll(async () => {
      // the sharer first, then the owner, which stops PostgreSQL
      for (const child of children.reverse()) await stop(child);
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it("when the gateway and the scripts service start as two processes, then the second shares the first's PostgreSQL and an MCP call goes through both", async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), "bancada-mixed-"));
      const { DATABASE_URL: _db, ...rest } = process.env;
      // a subject root of its own: other runs on the same NATS server never answer for this one
      const env = {
        ...rest,
        NATS_URL: natsUrl,
        BANCADA_DATA_DIR: dataDir,
        BANCADA_SUBJECT_ROOT: `mixed_${randomBytes(4).toString("hex")}`,
        LOG_LEVEL: "info",
      };
      // what `bancada start` left in a data folder before the per-service keys
      const { privateKey, publicKey } = generateKeyPairSync("ed25519");
      const oldPair = {
        signingKey: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
        verifyKey: publicKey.export({ format: "der", type: "spki" }).toString("base64"),
      };
      await writeFile(path.join(dataDir, "bus-keys.json"), JSON.stringify(oldPair), { mode: 0o600 });

      const gateway = launch(["start", "--only", "gateway"], { ...env, PORT: "0" });
      children.push(gateway.child);
      const ready = await gateway.waitFor(
        /MCP endpoint: (\S+)[\s\S]*development API key \(every scope, writes allowed\): (bnc_\S+)[\s\S]*Press Ctrl-C to stop\./,
      );
      const [, url, key] = ready;
      expect(logLine(gateway.output(), "embedded PostgreSQL ready")).toMatchObject({ shared: false });
      expect(gateway.output()).toMatch(/removed the old Ed25519 bus key pair: the bus keys are now derived from a new master secret/);
      await expect(access(path.join(dataDir, "bus-keys.json"))).rejects.toThrow();

      const scripts = launch(["start", "--only", "scripts"], { ...env, SCRIPTS_PORT: "0" });
      children.push(scripts.child);
      await scripts.waitFor(/"svc":"scripts","tools":\d+,"msg":"tools served on the bus"/);
      await scripts.waitFor(/"msg":"REST API, health and metrics listening"/);
      expect(logLine(scripts.output(), "embedded PostgreSQL ready")).toMatchObject({ shared: true });
      expect(scripts.output()).not.toContain("MCP endpoint");
      const restLine = logLine(scripts.output(), "REST API, health and metrics listening") as { url: string; variable: string };
      expect(restLine.variable).toBe("SCRIPTS_PORT");
      expect((await fetch(`${restLine.url}/healthz`)).status).toBe(200);

      // another service alone takes its own port variable, so the two can share a host
      const boards = launch(["start", "--only", "boards"], { ...env, BOARDS_PORT: "0" });
      children.push(boards.child);
      await boards.waitFor(/"msg":"REST API, health and metrics listening"/);
      expect(logLine(boards.output(), "REST API, health and metrics listening")).toMatchObject({ variable: "BOARDS_PORT" });
      expect(await stop(boards.child)).toBe(0);

      const client = await connectClient(url!, key!);
      // the gateway learns of the scripts tools when the service announces its catalog
      const created = await eventually(async () => {
        const outcome = await callTool<{ script: { id: string; title: string } }>(client, "create_script", {
          title: "across processes",
          text: "hi",
        });
        if (outcome.isError) throw new Error(outcome.text);
        return outcome;
      });
      expect(created.data.script.title).toBe("across processes");
      const read = await callTool<{ script: { title: string } }>(client, "get_script", { id: created.data.script.id });
      expect(read.isError).toBe(false);
      expect(read.data.script.title).toBe("across processes");
      await client.close();

      // the REST call's key is resolved by the gateway process over NATS, with keys of the master both read from the data folder
      const viaRest = await fetch(`${restLine.url}/v1/scripts/${created.data.script.id}`, { headers: { authorization: `Bearer ${key}` } });
      expect(viaRest.status).toBe(200);
      expect((await stat(path.join(dataDir, "bus-master.json"))).mode & 0o777).toBe(0o600);

      // the sharer stops without stopping the server; the owner stops it
      expect(await stop(scripts.child)).toBe(0);
      expect(await embeddedServerAnswers(dataDir)).toBe(true);
      expect(await stop(gateway.child)).toBe(0);
      expect(await embeddedServerAnswers(dataDir)).toBe(false);
    });
  },
);

function logLine(output: string, msg: string): Record<string, unknown> | undefined {
  for (const line of output.split("\n")) {
    if (!line.startsWith('{"level"')) continue;
    const parsed = JSON.parse(line) as Record<string, unknown>;
    if (parsed.msg === msg) return parsed;
  }
  return undefined;
}
