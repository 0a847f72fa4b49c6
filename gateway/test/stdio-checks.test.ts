/**
 * stdio gets the same message checks as HTTP (request-shape.ts `messageProblem`): a line with a key twice in one
 * object, or a malformed tools/call, is answered -32602 naming the problem and never reaches the SDK or a tool;
 * the lines around it are served as usual. The gateway's stdio transport runs in-process on a pair of streams.
 */
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@bancada/e2e";
import { serveStdio } from "@bancada/gateway";
import { echoFactory } from "./fixtures.js";

interface Answer {
  id: string | number | null;
  result?: { structuredContent?: unknown; isError?: boolean };
  error?: { code: number; message: string };
}

describe("stdio message checks", () => {
  let stack: Stack;
  let stdio: { close(): Promise<void> };
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const answers: Answer[] = [];
  let text = "";
  stdout.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    let end = text.indexOf("\n");
    while (end !== -1) {
      answers.push(JSON.parse(text.slice(0, end)) as Answer);
      text = text.slice(end + 1);
      end = text.indexOf("\n");
    }
  });
  /** Writes one line (optionally split in two chunks mid-character) and waits for the answer with that id. */
  async function send(line: string, id: string | number | null, split = false): Promise<Answer> {
    const bytes = Buffer.from(`${line}\n`);
    if (split) {
      const middle = bytes.indexOf(Buffer.from("é")) + 1; // inside the two bytes of é
      stdin.write(bytes.subarray(0, middle));
      await new Promise((resolve) => setTimeout(resolve, 20));
      stdin.write(bytes.subarray(middle));
    } else stdin.write(bytes);
    const until = Date.now() + 30_000;
    for (;;) {
      const found = answers.find((answer) => answer.id === id);
      if (found) {
        answers.splice(answers.indexOf(found), 1);
        return found;
      }
      if (Date.now() > until) throw new Error(`no answer with id ${String(id)}; got ${JSON.stringify(answers)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  beforeAll(async () => {
    stack = await startStack({ services: { echo: echoFactory } });
    const key = await stack.createKey({ scopes: ["docs:read"] });
    stdio = await serveStdio(stack.gateway, key, "full", { stdin, stdout });
    const init = await send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
      0,
    );
    expect(init.result).toBeDefined();
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  }, 120_000);
  afterAll(async () => {
    await stdio?.close();
    await stack?.stop();
  });

  it("when a line repeats a key in one object, then -32602 naming the key, and the next line is served", async () => {
    const twice = await send(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","name":"slow_echo","arguments":{"message":"x"}}}',
      1,
    );
    expect(twice.error).toMatchObject({ code: -32602, message: expect.stringMatching(/'name' appears twice/) });
    const nested = await send(
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"x","message":"y"}}}',
      2,
    );
    expect(nested.error?.code).toBe(-32602);
    // a key's name inside a string value is not a key; the line is split inside a two-byte character on the way
    const fine = await send(
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"é [\\"name\\":1,\\"name\\":2]"}}}',
      3,
      true,
    );
    expect(fine.error).toBeUndefined();
    expect(fine.result?.isError).toBeFalsy();
  });

  it("when a line is a malformed tools/call, then the same readable -32602 as over HTTP", async () => {
    const answer = await send('{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo","arguments":[]}}', "a");
    expect(answer.error).toMatchObject({ code: -32602, message: expect.stringMatching(/not an array/) });
  });
});
