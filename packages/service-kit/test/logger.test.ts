import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../src/logger.js";

function sink(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

describe("createLogger", () => {
  it("when the format is json, then one JSON object a line; when pretty, then a readable line with the level and the fields", async () => {
    const json = sink();
    createLogger("t", "info", json.stream).info({ tool: "get_script" }, "tool call");
    expect(JSON.parse(json.text())).toMatchObject({ level: 30, name: "t", tool: "get_script", msg: "tool call" });

    const pretty = sink();
    const log = createLogger("t", "info", pretty.stream, "pretty");
    log.info({ tool: "get_script" }, "tool call");
    await new Promise<void>((resolve) => log.flush(() => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pretty.text()).toMatch(/INFO.*\(t\/\d+\): tool call/);
    expect(pretty.text()).toContain('tool: "get_script"');
    expect(pretty.text()).not.toContain('{"level"');
  });
});
