/** The embedded PostgreSQL says it is creating its cluster on the first start only. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { createLogger } from "@bancada/service-kit";
import { openDatabases } from "../src/database.js";
import { loadEnv } from "../src/env.js";

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
