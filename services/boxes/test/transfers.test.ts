/**
 * get_upload_url / get_download_url on real boxes through the gateway: uploads land atomically as the box's user
 * (never through a box's symlink onto the host), the 5 GB edge by Content-Length and by streamed bytes, an
 * interrupted upload leaves nothing, downloads with Content-Length and ranges, folders as tar.zst and the 2 GB
 * edge, and every kind of forged URL answered 403 with nothing written. The streamed edges lower the limits on
 * the running service (the real 5 GB is checked against a declared Content-Length, no bytes needed).
 */
import { createHash, randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "@bancada/e2e";
import { closeBoxFixture, describeBoxes, openBoxFixture, type BoxFixture } from "./stack.js";
import { fails, ok, restClient, run, until, type Box } from "./helpers.js";

interface TransferUrl {
  url: string;
  method: string;
  path: string;
  expiresAt: string;
  maxBytes: number | null;
  archive: boolean;
  example: string;
}

const GiB = 1024 ** 3;
const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** A raw HTTP request: body written in chunks (no Content-Length unless given), optionally cut off after `abortAfter` bytes. */
function send(
  url: string,
  options: { method: string; chunks?: Buffer[]; headers?: Record<string, string>; abortAfter?: number },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer } | "aborted"> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method, headers: options.headers ?? {} }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (chunk: Buffer) => parts.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on("error", () => resolve("aborted"));
    });
    req.on("error", (error) => (options.abortAfter !== undefined ? resolve("aborted") : reject(error)));
    let sent = 0;
    for (const chunk of options.chunks ?? []) {
      if (options.abortAfter !== undefined && sent + chunk.length > options.abortAfter) {
        req.write(chunk.subarray(0, options.abortAfter - sent), () => setTimeout(() => req.destroy(), 200));
        return;
      }
      req.write(chunk);
      sent += chunk.length;
    }
    req.end();
  });
}

const json = (response: Awaited<ReturnType<typeof send>>) => {
  if (response === "aborted") throw new Error("the request was aborted");
  return JSON.parse(response.body.toString("utf8")) as Record<string, unknown> & { error?: { code: string; message: string } };
};

describeBoxes("transfer URLs", () => {
  let fixture: BoxFixture;
  let client: Client;
  let box: Box;
  let other: Box;
  let hostDir: string;

  beforeAll(async () => {
    fixture = await openBoxFixture("transfers");
    ({ client, box } = fixture);
    other = (await ok(client, "create_box", { name: "transfers-other" })).box;
    fixture.boxes.service().runtime.transfers.publicUrl = fixture.stack.baseUrl;
    hostDir = mkdtempSync(path.join(tmpdir(), "bancada-transfer-host-"));
  });
  afterAll(async () => {
    await closeBoxFixture(fixture ?? {});
    if (hostDir) rmSync(hostDir, { recursive: true, force: true });
  });

  const transfers = () => fixture.boxes.service().runtime.transfers;
  const uploadUrl = (args: Record<string, unknown>) => ok<TransferUrl>(client, "get_upload_url", { boxId: box.id, ...args });
  const downloadUrl = (args: Record<string, unknown>) => ok<TransferUrl>(client, "get_download_url", { boxId: box.id, ...args });
  const inBox = async (cmd: string) => (await run(client, box.id, cmd)).stdout.trim();
  const leftovers = () => inBox("find /data/home -name '.bancada-upload.*' 2>/dev/null | wc -l");

  it("when a file is PUT to an upload URL, then it is in the box with its mode, owned by the box's root, and the URL holds no API key", async () => {
    const grant = await uploadUrl({ path: "up/data.bin", mode: "0600" });
    expect(grant).toMatchObject({ method: "PUT", path: "/data/home/up/data.bin", maxBytes: 5 * GiB, archive: false });
    expect(grant.url.startsWith(`${fixture.stack.baseUrl}/boxes/transfers/upload/${box.id}?`)).toBe(true);
    expect(grant.url).not.toContain(fixture.key);
    expect(Date.parse(grant.expiresAt) - Date.now()).toBeGreaterThan(3590_000);
    expect(Date.parse(grant.expiresAt) - Date.now()).toBeLessThanOrEqual(3600_000);
    const data = randomBytes(3 * 1024 * 1024 + 17);
    const response = await send(grant.url, { method: "PUT", chunks: [data.subarray(0, 1 << 20), data.subarray(1 << 20)] });
    expect(json(response)).toEqual({ path: "/data/home/up/data.bin", size: data.length, mode: "0600" });
    expect(await inBox("sha256sum /data/home/up/data.bin | cut -d' ' -f1; stat -c '%a %u' /data/home/up/data.bin")).toBe(
      `${sha(data)}\n600 0`,
    );
    expect(await leftovers()).toBe("0");
  });

  it("when the same upload URL is PUT twice, then the second replaces the first whole (each is atomic, the last wins)", async () => {
    const grant = await uploadUrl({ path: "twice.txt" });
    expect(json(await send(grant.url, { method: "PUT", chunks: [Buffer.from("first version, longer\n")] })).size).toBe(22);
    expect(json(await send(grant.url, { method: "PUT", chunks: [Buffer.from("second\n")] })).size).toBe(7);
    expect(await inBox("cat twice.txt")).toBe("second");
    expect(await leftovers()).toBe("0");
  });

  it("when the box made the target's folder a symlink to a host path, then the upload stays inside the box", async () => {
    await inBox(`ln -s ${hostDir} /data/home/escape`);
    const grant = await uploadUrl({ path: "escape/planted" });
    // Dangling in the box (the host folder is not there): refused, nothing on the host.
    const dangling = json(await send(grant.url, { method: "PUT", chunks: [Buffer.from("x")] }));
    expect(dangling.error).toMatchObject({ code: "failed_precondition" });
    expect(existsSync(path.join(hostDir, "planted"))).toBe(false);
    // The same path made in the box: the file lands there, in the box's own folder.
    await inBox(`mkdir -p ${hostDir}`);
    expect(json(await send(grant.url, { method: "PUT", chunks: [Buffer.from("x")] })).size).toBe(1);
    expect(existsSync(path.join(hostDir, "planted"))).toBe(false);
    expect(await inBox(`cat ${hostDir}/planted`)).toBe("x");
  });

  it("when Content-Length says 5 GB + 1, then 413 comes before the body is read and nothing is written", async () => {
    const grant = await uploadUrl({ path: "huge.bin" });
    const response = await send(grant.url, {
      method: "PUT",
      headers: { "Content-Length": String(5 * GiB + 1) },
      chunks: [Buffer.alloc(64 * 1024)],
      abortAfter: 64 * 1024,
    });
    expect(response).not.toBe("aborted");
    expect(json(response).error).toMatchObject({ code: "payload_too_large" });
    expect(json(response).error!.message).toContain("5 GB");
    expect(await inBox("ls huge.bin 2>&1 || true")).toContain("No such file");
  });

  it("when streamed bytes (no Content-Length) go one past the limit, then 413 and nothing is written; exactly the limit is taken", async () => {
    const saved = transfers().maxUploadBytes;
    transfers().maxUploadBytes = 2 * 1024 * 1024;
    try {
      const grant = await uploadUrl({ path: "edge.bin" });
      const over = await send(grant.url, { method: "PUT", chunks: [randomBytes(1 << 20), randomBytes((1 << 20) + 1)] });
      expect(json(over).error).toMatchObject({ code: "payload_too_large" });
      expect(await inBox("ls edge.bin 2>&1 || true")).toContain("No such file");
      await until(leftovers, (count) => count === "0");
      const exact = randomBytes(2 * 1024 * 1024);
      expect(json(await send(grant.url, { method: "PUT", chunks: [exact] })).size).toBe(exact.length);
      expect(await inBox("sha256sum edge.bin | cut -d' ' -f1")).toBe(sha(exact));
    } finally {
      transfers().maxUploadBytes = saved;
    }
  });

  it("when an upload breaks off half-way, then neither the file nor a temporary file is left, and an old file keeps its content", async () => {
    await inBox("echo old > cut.bin");
    const grant = await uploadUrl({ path: "cut.bin" });
    const response = await send(grant.url, {
      method: "PUT",
      headers: { "Content-Length": String(8 * 1024 * 1024) },
      chunks: [randomBytes(4 * 1024 * 1024), randomBytes(4 * 1024 * 1024)],
      abortAfter: 3 * 1024 * 1024,
    });
    expect(response).toBe("aborted");
    expect(await until(leftovers, (count) => count === "0")).toBe("0");
    expect(await inBox("cat cut.bin")).toBe("old");
  });

  it("when the box is suspended during an upload, then the upload answers 409 at once naming resume_box, and nothing is written", async () => {
    const grant = await ok<TransferUrl>(client, "get_upload_url", { boxId: other.id, path: "during-suspend.bin" });
    const req = httpRequest(grant.url, { method: "PUT", headers: { "Content-Length": String(8 * 1024 * 1024) } });
    req.on("error", () => {});
    const answered = new Promise<{ status: number; body: string }>((resolve) =>
      req.on("response", (res) => {
        const parts: Buffer[] = [];
        res.on("data", (chunk: Buffer) => parts.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8") }));
      }),
    );
    // Half the body, then nothing more: the upload is under way in the box when it is suspended.
    req.write(randomBytes(4 * 1024 * 1024));
    const temporaries = () => run(client, other.id, "find /data/home -name '.bancada-upload.*' 2>/dev/null | wc -l");
    await until(temporaries, (result) => result.stdout.trim() === "1");
    await ok(client, "suspend_box", { boxId: other.id });
    const suspendedAt = Date.now();
    const response = await answered;
    req.destroy();
    expect(Date.now() - suspendedAt).toBeLessThan(3_000);
    expect(response.status).toBe(409);
    const error = (JSON.parse(response.body) as { error: { code: string; message: string; details: Record<string, unknown> } }).error;
    expect(error.code).toBe("failed_precondition");
    expect(error.message).toMatch(/suspended while the upload ran.*nothing was written.*resume_box/);
    expect(error.details).toMatchObject({ boxId: other.id, state: "suspended" });
    await ok(client, "resume_box", { boxId: other.id });
    expect(await until(temporaries, (result) => result.stdout.trim() === "0")).toMatchObject({ stdout: "0\n" });
    await fails(client, "read_file", { boxId: other.id, path: "during-suspend.bin" }, "not_found");
  });

  it("when a file is downloaded, then it streams whole with Content-Length; a Range answers 206, a range past the end 416", async () => {
    const data = randomBytes(1024 * 1024 + 123);
    const grant = await uploadUrl({ path: "down.bin" });
    await send(grant.url, { method: "PUT", chunks: [data] });
    const url = (await downloadUrl({ path: "down.bin" })).url;
    const whole = await send(url, { method: "GET" });
    if (whole === "aborted") throw new Error("aborted");
    expect(whole.status).toBe(200);
    expect(whole.headers["content-length"]).toBe(String(data.length));
    expect(whole.headers["accept-ranges"]).toBe("bytes");
    expect(sha(whole.body)).toBe(sha(data));

    const part = await send(url, { method: "GET", headers: { Range: "bytes=1000-1999" } });
    if (part === "aborted") throw new Error("aborted");
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 1000-1999/${data.length}`);
    expect(part.body.equals(data.subarray(1000, 2000))).toBe(true);

    const suffix = await send(url, { method: "GET", headers: { Range: "bytes=-10" } });
    if (suffix === "aborted") throw new Error("aborted");
    expect(suffix.status).toBe(206);
    expect(suffix.body.equals(data.subarray(data.length - 10))).toBe(true);

    const open = await send(url, { method: "GET", headers: { Range: `bytes=${data.length - 1}-` } });
    if (open === "aborted") throw new Error("aborted");
    expect(open.body.equals(data.subarray(data.length - 1))).toBe(true);

    const past = await send(url, { method: "GET", headers: { Range: `bytes=${data.length}-` } });
    if (past === "aborted") throw new Error("aborted");
    expect(past.status).toBe(416);
    expect(past.headers["content-range"]).toBe(`bytes */${data.length}`);
    expect(json(past).error).toMatchObject({ code: "invalid_argument" });
  });

  it("when a missing file, a folder without archive or a file with archive is asked for, then 404 / 400 say what to do", async () => {
    const missing = await send((await downloadUrl({ path: "nope" })).url, { method: "GET" });
    expect(json(missing).error).toMatchObject({ code: "not_found" });
    const folder = await send((await downloadUrl({ path: "up" })).url, { method: "GET" });
    expect(json(folder).error!.message).toContain("archive: true");
    const file = await send((await downloadUrl({ path: "down.bin", archive: true })).url, { method: "GET" });
    expect(json(file).error!.message).toContain("without archive");
  });

  it("when a folder is downloaded with archive: true, then a tar.zst of it extracts to the same files", async () => {
    await inBox("mkdir -p tree/a/b && echo one > tree/one.txt && head -c 200000 /dev/urandom > tree/a/b/blob && ln -s one.txt tree/link");
    const expected = await inBox("cd tree && find . -type f -exec sha256sum {} + | sort -k2");
    const response = await send((await downloadUrl({ path: "tree", archive: true })).url, { method: "GET" });
    if (response === "aborted") throw new Error("aborted");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/zstd");
    expect(response.headers["content-disposition"]).toContain("tree.tar.zst");
    const out = mkdtempSync(path.join(tmpdir(), "bancada-archive-"));
    try {
      writeFileSync(path.join(out, "tree.tar.zst"), response.body);
      execFileSync("tar", ["--zstd", "-xf", "tree.tar.zst", "--one-top-level=x"], { cwd: out });
      const got = execFileSync("sh", ["-c", "cd x && find . -type f -exec sha256sum {} + | sort -k2"], { cwd: out }).toString().trim();
      expect(got).toBe(expected);
      expect(
        execFileSync("readlink", [path.join(out, "x/link")])
          .toString()
          .trim(),
      ).toBe("one.txt");
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("when a folder holds more than the archive limit, then the download is refused with what to do instead", async () => {
    const saved = transfers().maxArchiveBytes;
    transfers().maxArchiveBytes = 100_000;
    try {
      const response = await send((await downloadUrl({ path: "tree", archive: true })).url, { method: "GET" });
      const error = json(response).error!;
      expect(error.code).toBe("payload_too_large");
      expect(error.message).toMatch(/holds \d+ bytes; folder archives are up to 100000 bytes/);
    } finally {
      transfers().maxArchiveBytes = saved;
    }
  });

  it("when one byte of the signature, the path or the expiry is changed, or the URL names another box, then 403 and nothing is written", async () => {
    const grant = await uploadUrl({ path: "forged.txt" });
    const url = new URL(grant.url);
    const signature = url.searchParams.get("signature")!;
    const variants = [
      (u: URL) => u.searchParams.set("signature", (signature[0] === "A" ? "B" : "A") + signature.slice(1)),
      (u: URL) => u.searchParams.set("path", "/data/home/forged2.txt"),
      (u: URL) => u.searchParams.set("expires", String(Number(u.searchParams.get("expires")) + 3600)),
      (u: URL) => u.searchParams.set("mode", "0777"),
      (u: URL) => (u.pathname = u.pathname.replace(box.id, other.id)),
      (u: URL) => u.searchParams.delete("signature"),
    ];
    for (const change of variants) {
      const forged = new URL(url);
      change(forged);
      const response = await send(forged.toString(), { method: "PUT", chunks: [Buffer.from("forged")] });
      expect(json(response).error).toMatchObject({ code: "permission_denied" });
    }
    const download = new URL((await downloadUrl({ path: "down.bin" })).url);
    download.pathname = download.pathname.replace("/download/", "/upload/");
    expect(json(await send(download.toString(), { method: "PUT", chunks: [Buffer.from("x")] })).error).toMatchObject({
      code: "permission_denied",
    });
    expect(await inBox("ls forged.txt forged2.txt 2>&1 | grep -c 'No such file'")).toBe("2");
    expect(await run(client, other.id, "ls /data/home/forged.txt 2>&1 || true").then((r) => r.stdout)).toContain("No such file");
  });

  it("when the URL's hour has passed, then it answers 403 saying it expired", async () => {
    const grant = await uploadUrl({ path: "late.txt" });
    const saved = transfers().now;
    transfers().now = () => Date.now() + 3600_000;
    try {
      const response = json(await send(grant.url, { method: "PUT", chunks: [Buffer.from("late")] }));
      expect(response.error).toMatchObject({ code: "permission_denied" });
      expect(response.error!.message).toContain("expired");
    } finally {
      transfers().now = saved;
    }
    transfers().now = () => Date.now() + 3590_000;
    try {
      expect(json(await send(grant.url, { method: "PUT", chunks: [Buffer.from("in time")] })).size).toBe(7);
    } finally {
      transfers().now = saved;
    }
  });

  it("when the box sleeps, then using a transfer URL wakes it", async () => {
    const service = fixture.boxes.service();
    const url = (await downloadUrl({ path: "twice.txt" })).url;
    await service.runtime.driver.suspend({
      id: box.id,
      runtime: (await service.db.box.findUniqueOrThrow({ where: { id: box.id } })).runtime,
    });
    await service.db.box.update({ where: { id: box.id }, data: { state: "sleeping" } });
    const response = await send(url, { method: "GET" });
    if (response === "aborted") throw new Error("aborted");
    expect(response.body.toString()).toBe("second\n");
    expect((await ok(client, "get_box", { boxId: box.id })).box.state).toBe("running");
  });

  it("when the REST mirrors are called, then they hand out the same URLs under the tools' scopes", async () => {
    const rest = restClient(fixture.stack.baseUrl, fixture.key);
    const up = await rest<TransferUrl>("POST", `/v1/boxes/${box.id}/upload-url`, { path: "rest.txt" });
    expect(up.status).toBe(200);
    expect(json(await send(up.body.url, { method: "PUT", chunks: [Buffer.from("rest")] })).size).toBe(4);
    const down = await rest<TransferUrl>("POST", `/v1/boxes/${box.id}/download-url`, { path: "rest.txt" });
    const body = await send(down.body.url, { method: "GET" });
    expect(body !== "aborted" && body.body.toString()).toBe("rest");
    const readOnly = restClient(fixture.stack.baseUrl, await fixture.stack.createKey({ scopes: ["boxes:read"] }));
    expect((await readOnly("POST", `/v1/boxes/${box.id}/upload-url`, { path: "x" })).status).toBe(403);
    expect((await readOnly("POST", `/v1/boxes/${box.id}/download-url`, { path: "x" })).status).toBe(200);
  });

  it("when account B asks for URLs of A's box, then it is not found, over MCP and REST", async () => {
    const keyB = await fixture.stack.createKey({ accountId: "acct-b", scopes: ["boxes:read", "boxes:write"] });
    const clientB = await connectClient(fixture.stack.mcpUrl, keyB);
    try {
      for (const tool of ["get_upload_url", "get_download_url"]) await fails(clientB, tool, { boxId: box.id, path: "x" }, "not_found");
      await fails(clientB, "get_upload_url", { boxId: "transfers", path: "x" }, "not_found");
      const rest = restClient(fixture.stack.baseUrl, keyB);
      expect((await rest("POST", `/v1/boxes/${box.id}/download-url`, { path: "x" })).status).toBe(404);
    } finally {
      await clientB.close();
    }
  });

  it("when arguments are out of range, then invalid_argument names the field", async () => {
    await fails(client, "get_upload_url", { boxId: box.id, path: "x", mode: "999" }, "invalid_argument");
    await fails(client, "get_upload_url", { boxId: box.id, path: "dir/" }, "invalid_argument");
    await fails(client, "get_download_url", { boxId: box.id, path: "" }, "invalid_argument");
  });
});
