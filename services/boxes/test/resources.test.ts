/**
 * A box's files as MCP resources and read_file's image content, through the gateway with a real box: the template
 * `bancada://boxes/{box}/files/{path}` reads a file by box name or id (text, or a blob), a file over 1 MB answers
 * a signed download URL, the box completes by name for the caller alone; another account reaches none of it.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, type Stack } from "@bancada/e2e";
import { type BoxesTestStack, closeBoxFixture, describeBoxes, openBoxFixture } from "./stack.js";
import { allScopes, ok, run, type Box } from "./helpers.js";

const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describeBoxes("box files as resources", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let client: Client;
  let box: Box;
  let stranger: Client;

  beforeAll(async () => {
    ({ boxes, stack, client, box } = await openBoxFixture("recursos"));
    // signed URLs name this stack's address (as a deployment names its public one)
    boxes.service().runtime.transfers.publicUrl = stack.baseUrl;
    stranger = await connectClient(
      stack.mcpUrl,
      await stack.createKey({ accountId: "acct-other", personId: "p-other", scopes: allScopes }),
    );
    await ok(client, "write_file", { boxId: box.id, path: "notas.txt", content: "olá, caixa\n" });
    await ok(client, "write_file", { boxId: box.id, path: "pixel.png", content: png, encoding: "base64" });
    await run(client, box.id, "head -c 1100000 /dev/zero > grande.bin");
  }, 300_000);
  afterAll(async () => {
    await stranger?.close();
    await closeBoxFixture({ boxes, stack, client });
  });

  it("when a file is read through the template by box name or id, then text comes as text and an image as a blob", async () => {
    const byName = await client.readResource({ uri: "bancada://boxes/recursos/files/notas.txt" });
    expect(byName.contents).toEqual([{ uri: "bancada://boxes/recursos/files/notas.txt", mimeType: "text/plain", text: "olá, caixa\n" }]);
    const absolute = await client.readResource({ uri: `bancada://boxes/${box.id}/files//data/home/pixel.png` });
    expect(absolute.contents).toEqual([{ uri: `bancada://boxes/${box.id}/files//data/home/pixel.png`, mimeType: "image/png", blob: png }]);
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((template) => template.uriTemplate)).toContain("bancada://boxes/{box}/files/{path}");
  });

  it("when a file is larger than 1 MB, then the resource is a signed download URL for it", async () => {
    const read = await client.readResource({ uri: "bancada://boxes/recursos/files/grande.bin" });
    expect(read.contents).toHaveLength(1);
    expect(read.contents[0]).toMatchObject({ mimeType: "text/uri-list", text: expect.stringMatching(/^https?:\/\/\S+\r\n$/) });
    expect((read.contents[0] as { text: string }).text.startsWith(`${stack.baseUrl}/boxes/transfers/download/${box.id}?`)).toBe(true);
    const url = (read.contents[0] as { text: string }).text.trim();
    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBe(1_100_000);
  });

  it("when read_file reads an image, then the result shows it as image content beside the structured result", async () => {
    const result = await client.callTool({ name: "read_file", arguments: { boxId: box.id, path: "pixel.png" } });
    expect(result.structuredContent).toMatchObject({ encoding: "base64", content: png });
    expect(result.content).toEqual([expect.objectContaining({ type: "text" }), { type: "image", data: png, mimeType: "image/png" }]);
    const text = await client.callTool({ name: "read_file", arguments: { boxId: box.id, path: "notas.txt" } });
    expect((text.content as unknown[]).map((block) => (block as { type: string }).type)).toEqual(["text"]);
  });

  it("when the box is completed, then the caller's box is offered by name, and another account gets nothing and reads nothing", async () => {
    const ref = { type: "ref/resource" as const, uri: "bancada://boxes/{box}/files/{path}" };
    expect((await client.complete({ ref, argument: { name: "box", value: "rec" } })).completion.values).toEqual(["recursos"]);
    expect((await client.complete({ ref, argument: { name: "box", value: "bx_" } })).completion.values).toContain(box.id);
    expect((await stranger.complete({ ref, argument: { name: "box", value: "" } })).completion.values).toEqual([]);
    await expect(stranger.readResource({ uri: `bancada://boxes/${box.id}/files/notas.txt` })).rejects.toMatchObject({ code: -32602 });
    await expect(stranger.readResource({ uri: "bancada://boxes/recursos/files/notas.txt" })).rejects.toMatchObject({ code: -32602 });
  });
});
