// The numbers docs/ states about the whole catalog are counted from it, not typed: Bancada runs in this process
// (every service, as `bancada start` runs them), its gateway's catalog is counted, and every "<n> tools"
// in the documentation must be that count, unless the sentence dates it ("at the time": a measurement's context).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "@bancada/testkit";
import { startInProcess, type InProcess } from "./in-process.js";

const root = path.resolve(import.meta.dirname, "../..");
const documents = [
  "README.md",
  "ARCHITECTURE.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((file) => file.endsWith(".md"))
    .map((file) => `docs/${file}`),
];

/** Every "<n> tools" claim of the documentation, with where it stands. */
function claims(noun: "tools"): { where: string; count: number; dated: boolean }[] {
  const found = [];
  for (const file of documents) {
    const text = readFileSync(path.join(root, file), "utf8");
    for (const match of text.matchAll(new RegExp(`\\b(\\d+) ${noun}\\b([^.;)]{0,40})`, "g"))) {
      const line = text.slice(0, match.index).split("\n").length;
      found.push({ where: `${file}:${line}`, count: Number(match[1]), dated: /at the time/.test(match[2] ?? "") });
    }
  }
  return found;
}

describe("the numbers in docs/", { timeout: 300_000 }, () => {
  let stack: InProcess;
  let client: Client;
  beforeAll(async () => {
    stack = await startInProcess();
    client = await connectClient(stack.mcpUrl, stack.key);
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
  });

  it("say as many tools as the catalog of every service holds, and the count is stated", async () => {
    const catalog = stack.runtime.gateway!.catalog.tools().map((tool) => tool.descriptor.name);
    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    // what a key with every scope lists over HTTP is the catalog but for the tools offered on other transports only
    expect(listed.every((name) => catalog.includes(name))).toBe(true);
    const stated = claims("tools").filter((claim) => !claim.dated);
    expect(stated.length, "docs/gateway.md states how many tools the catalog holds").toBeGreaterThan(0);
    const wrong = stated.filter((claim) => claim.count !== catalog.length);
    expect(wrong.map((claim) => `${claim.where} says ${claim.count}; the catalog holds ${catalog.length}`)).toEqual([]);
  });
});
