/** The embedded start's messages: the cluster's creation on the first start only, and no noise before the banner. */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { createLogger } from "@bancada/service-kit";
import { openDatabases } from "../src/database.js";
import { loadEnv } from "../src/env.js";
import { startBancada } from "./start-bancada.js";

describe("the embedded PostgreSQL's start message", { timeout: 180_000 }, () => {
  let dir: string | undefined;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("when the data folder is new, then it says the cluster is being created; on the next start it does not", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "bancada-first-start-"));
    const { DATABASE_URL: _db, ...rest } = process.env;
    const env = loadEnv({ ...rest, BANCADA_DATA_DIR: dir });
    const messages: string[] = [];
    for (let start = 0; start < 2; start++) {
      let text = "";
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          text += chunk.toString();
          done();
        },
      });
      const databases = await openDatabases(env, createLogger("test", "info", sink));
      await databases.stop();
      messages.push(String((JSON.parse(text.split("\n")[0]!) as { msg: string }).msg));
    }
    expect(messages).toEqual(["creating the embedded PostgreSQL cluster (first start: a few seconds)", "starting the embedded PostgreSQL"]);
  });
});

describe("the embedded start's output before the banner", { timeout: 180_000 }, () => {
  let dir: string | undefined;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("when the SSH port is taken and the data folder is new, then the endpoint takes a free port and says which in one line, and the migrations are one summary line", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "bancada-start-noise-"));
    // as root, PostgreSQL runs as the postgres user, which must pass through this folder
    await chmod(dir, 0o711);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const takenPort = (taken.address() as AddressInfo).port;
    const { DATABASE_URL: _db, NATS_URL: _nats, ...rest } = process.env;
    try {
      const started = await startBancada({
        ...rest,
        BANCADA_DATA_DIR: path.join(dir, "data"),
        PORT: "0",
        LOG_LEVEL: "info",
        BOXES_SSH_PORT: String(takenPort),
      });
      expect(await started.stop()).toBe(0);
      const before = started.output().split("Bancada is ready.")[0]!;
      const ssh = new RegExp(`the SSH endpoint listens on port (\\d+) \\(${takenPort} is in use`).exec(before);
      expect(ssh, before).not.toBeNull();
      expect(Number(ssh![1])).not.toBe(takenPort);
      expect(before).not.toMatch(/EADDRINUSE|"stack"/);
      expect(before).not.toContain("migration applied");
      expect(before.match(/\d+ database migrations applied/g)).toHaveLength(1);
      // the start's duration, for the README's figure
      expect(before).toMatch(/"msg":"started in \d+ ms"/);
    } finally {
      taken.close();
    }
  });
});
