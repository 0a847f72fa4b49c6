/**
 * exec and the file tools in a real box, through the gateway: cmd and argv, cwd, env, stdin, exit
 * status, output cut at 1 MB, deadlines, leftovers, cancellation; text and byte-exact binary files,
 * modes, parents, atomic writes and their errors; the 1 MB limits at their exact edges. Requests and
 * answers of several MiB are more than NATS carries in one message (max_payload 1 MiB by default): on
 * NATS they cross in parts, so the same edges hold on either bus.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { abandonableCall, type Stack } from "@bancada/e2e";
import { type BoxesTestStack, closeBoxFixture, describeBoxes, openBoxFixture } from "./stack.js";
import { call, fails, issuePaths, ok, run, until, type Box, type ExecResult } from "./helpers.js";

const MiB = 1_048_576;

describeBoxes("exec and files", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let client: Client;
  let key: string;
  let box: Box;

  beforeAll(async () => {
    ({ boxes, stack, key, client, box } = await openBoxFixture("work"));
  });
  afterAll(() => closeBoxFixture({ boxes, stack, client }));

  describe("exec", () => {
    it("when cmd is given, then it runs in a bash login shell in /data/home; argv runs without a shell", async () => {
      const shell = await run(client, box.id, 'shopt -q login_shell && echo login; pwd; echo "$HOME" $((6*7))');
      expect(shell).toMatchObject({
        stdout: "login\n/data/home\n/data/home 42\n",
        stderr: "",
        exitCode: 0,
        timedOut: false,
        stdoutTruncated: false,
      });
      const argv = await ok<{ stdout: string }>(client, "exec", { boxId: box.id, argv: ["printf", "%s|", "a b", "$HOME", "*"] });
      expect(argv.stdout).toBe("a b|$HOME|*|");
    });

    it("when cwd and env are given, then the command runs there with them; a missing cwd is invalid_argument", async () => {
      await run(client, box.id, "mkdir -p sub/dir");
      expect((await run(client, box.id, "pwd", { cwd: "sub/dir" })).stdout).toBe("/data/home/sub/dir\n");
      expect((await run(client, box.id, "pwd", { cwd: "/tmp" })).stdout).toBe("/tmp\n");
      expect((await run(client, box.id, 'echo "$GREETING $OTHER"', { env: { GREETING: "olá", OTHER: "x y" } })).stdout).toBe("olá x y\n");
      const error = await fails(client, "exec", { boxId: box.id, cmd: "true", cwd: "/nope/missing" }, "invalid_argument");
      expect(issuePaths(error)).toEqual(["cwd"]);
    });

    it("when stdin is given as utf8 or base64, then the command reads exactly those bytes", async () => {
      expect((await run(client, box.id, "cat", { stdin: "linha 1\nlinha 2 ✓\n" })).stdout).toBe("linha 1\nlinha 2 ✓\n");
      const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(4096)]);
      const hashed = await run(client, box.id, "sha256sum | cut -d' ' -f1", { stdin: bytes.toString("base64"), stdinEncoding: "base64" });
      expect(hashed.stdout.trim()).toBe(createHash("sha256").update(bytes).digest("hex"));
      expect(
        issuePaths(await fails(client, "exec", { boxId: box.id, cmd: "cat", stdin: "@@@", stdinEncoding: "base64" }, "invalid_argument")),
      ).toEqual(["stdin"]);
    });

    it("when the command fails or is killed by a signal, then exitCode and signal say so", async () => {
      expect(await run(client, box.id, "echo out; echo err >&2; exit 7")).toMatchObject({
        stdout: "out\n",
        stderr: "err\n",
        exitCode: 7,
        signal: null,
      });
      expect(await run(client, box.id, "kill -TERM $$")).toMatchObject({ exitCode: null, signal: "SIGTERM", timedOut: false });
      expect((await ok<{ exitCode: number }>(client, "exec", { boxId: box.id, argv: ["no-such-program"] })).exitCode).toBe(127);
    });

    it("when a cut falls inside a multi-byte character, then the text still ends on a whole character", async () => {
      const result = await run(client, box.id, "yes é | tr -d '\\n' | head -c 1100001");
      expect(result.stdoutTruncated).toBe(true);
      expect(result.stdout).not.toContain("\uFFFD");
      expect(/^é+$/.test(result.stdout)).toBe(true);
    });

    it("when the deadline passes, then the command is killed at timeoutSeconds; 1 and 600 are accepted, 0 and 601 are not", async () => {
      const result = await run(client, box.id, "echo started; sleep 20", { timeoutSeconds: 1 });
      expect(result).toMatchObject({ stdout: "started\n", timedOut: true, exitCode: null, signal: "SIGKILL" });
      expect(result.durationMs).toBeGreaterThanOrEqual(1000);
      expect(result.durationMs).toBeLessThan(6000);
      expect((await run(client, box.id, "echo fine", { timeoutSeconds: 600 })).stdout).toBe("fine\n");
      expect(issuePaths(await fails(client, "exec", { boxId: box.id, cmd: "true", timeoutSeconds: 0 }, "invalid_argument"))).toEqual([
        "timeoutSeconds",
      ]);
      expect(issuePaths(await fails(client, "exec", { boxId: box.id, cmd: "true", timeoutSeconds: 601 }, "invalid_argument"))).toEqual([
        "timeoutSeconds",
      ]);
    });

    it("when exec runs long and the client asked for progress, then progress arrives every 5 s; the catalog allows 600 s calls", async () => {
      const updates: { progress: number; total?: number }[] = [];
      const result = await client.callTool(
        { name: "exec", arguments: { boxId: box.id, cmd: "sleep 6; echo late", timeoutSeconds: 30 } },
        undefined,
        {
          timeout: 60_000,
          resetTimeoutOnProgress: true,
          onprogress: (update) => updates.push(update),
        },
      );
      expect((result.structuredContent as { stdout: string }).stdout).toBe("late\n");
      expect(updates.length).toBeGreaterThanOrEqual(1);
      expect(updates[0]).toMatchObject({ total: 30 });
      for (const tool of ["exec", "job_wait"])
        expect(stack.gateway.catalog.tool(tool)?.descriptor.maxDurationMs).toBeGreaterThanOrEqual(600_000);
    });

    it("when a command leaves processes in the background, then they are killed when it returns and the call does not hang", async () => {
      const started = Date.now();
      const result = await run(client, box.id, "sleep 300 & setsid sleep 301 & echo left");
      expect(result.stdout).toBe("left\n");
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await run(client, box.id, "ps -eo cmd --no-headers")).stdout).not.toMatch(/sleep 30[01]/);
    });

    it("when the client goes away during exec, then the command's processes are killed", async () => {
      const call = abandonableCall(stack.mcpUrl, key, "exec", {
        boxId: box.id,
        cmd: "sleep 25; touch /data/home/after-cancel",
        timeoutSeconds: 60,
      });
      const service = boxes.service();
      await until(
        async () => service.runtime.inFlight.exec,
        (count) => count > 0,
      );
      // [s]leep: the pattern does not match the command line of the pgrep call itself.
      await until(
        () => run(client, box.id, "pgrep -cf '[s]leep 25' || true"),
        (r) => Number(r.stdout) >= 1,
      );
      await call.abandon();
      expect(
        await until(
          async () => service.runtime.inFlight.exec,
          (count) => count === 0,
        ),
      ).toBe(0);
      expect((await run(client, box.id, "pgrep -cf '[s]leep 25' || true")).stdout.trim()).toBe("0");
      await fails(client, "read_file", { boxId: box.id, path: "after-cancel" }, "not_found");
    });

    it("when the box is suspended during an exec, then the exec answers at once that the box was suspended, naming resume_box, and the command is gone after resume", async () => {
      const paused = (await ok(client, "create_box", { name: "paused-under-exec" })).box;
      try {
        const running = call<ExecResult>(client, "exec", {
          boxId: paused.id,
          cmd: "sleep 40; touch /data/home/after-suspend",
          timeoutSeconds: 60,
        });
        await until(
          async () => boxes.service().runtime.inFlight.exec,
          (count) => count > 0,
        );
        await ok(client, "suspend_box", { boxId: paused.id });
        const suspendedAt = Date.now();
        const answer = await running;
        expect(Date.now() - suspendedAt).toBeLessThan(3_000);
        expect(answer.isError).toBe(true);
        const error = (answer.data as unknown as { error: { code: string; message: string; details: Record<string, unknown> } }).error;
        expect(error.code).toBe("failed_precondition");
        expect(error.message).toMatch(/suspended while the command ran.*resume_box/);
        expect(error.details).toMatchObject({ boxId: paused.id, state: "suspended" });
        expect((await ok(client, "resume_box", { boxId: paused.id })).box.state).toBe("running");
        expect((await run(client, paused.id, "pgrep -cf '[s]leep 40' || true")).stdout.trim()).toBe("0");
      } finally {
        await ok(client, "delete_box", { boxId: paused.id, confirm: true });
      }
    });
  });

  describe("1 MB limits at their edges", () => {
    it("when a stream has exactly 1 MiB, then the box's driver keeps it whole; one byte more is cut at 1 MiB and counted", async () => {
      const service = boxes.service();
      const row = await service.db.box.findUniqueOrThrow({ where: { id: box.id } });
      const exec = (cmd: string) =>
        service.driver.exec(
          { id: row.id, runtime: row.runtime },
          { command: { cmd }, cwd: "/data/home", env: {}, timeoutMs: 60_000, maxOutputBytes: MiB },
        );
      const whole = await exec(`head -c ${MiB} /dev/zero`);
      expect([whole.stdout.length, whole.stdoutBytes]).toEqual([MiB, MiB]);
      const over = await exec(`head -c ${MiB + 1} /dev/zero >&2`);
      expect([over.stderr.length, over.stderrBytes]).toEqual([MiB, MiB + 1]);
    });

    it("when a command writes 2 MB to stdout and to stderr, then each stream comes back cut at 1 MiB and marked as cut", async () => {
      const outcome = await call<ExecResult>(
        client,
        "exec",
        { boxId: box.id, cmd: `head -c ${2 * MiB} /dev/zero | tr '\\0' a; head -c ${2 * MiB} /dev/zero | tr '\\0' b >&2` },
        120_000,
      );
      expect(outcome.isError).toBe(false);
      const result = outcome.data;
      expect(result).toMatchObject({
        exitCode: 0,
        stdoutTruncated: true,
        stderrTruncated: true,
        stdoutBytes: 2 * MiB,
        stderrBytes: 2 * MiB,
      });
      expect([result.stdout.length, result.stderr.length]).toEqual([MiB, MiB]);
      expect(/^a+$/.test(result.stdout) && /^b+$/.test(result.stderr)).toBe(true);
    });

    it("when stdin has exactly 1 MiB, then the command reads it all; with one byte more, payload_too_large names stdin", async () => {
      expect((await run(client, box.id, "wc -c", { stdin: "s".repeat(MiB) })).stdout.trim()).toBe(String(MiB));
      const base64 = Buffer.alloc(MiB + 1, 7).toString("base64");
      expect(
        issuePaths(
          await fails(client, "exec", { boxId: box.id, cmd: "wc -c", stdin: base64, stdinEncoding: "base64" }, "payload_too_large"),
        ),
      ).toEqual(["stdin"]);
    });

    it("when write_file gets exactly 1 MiB, then it writes it whole; with one byte more, payload_too_large names content", async () => {
      const text = "t".repeat(MiB);
      expect((await ok<{ size: number }>(client, "write_file", { boxId: box.id, path: "edge.txt", content: text })).size).toBe(MiB);
      expect((await run(client, box.id, "wc -c < edge.txt; tr -d t < edge.txt | wc -c")).stdout).toBe(`${MiB}\n0\n`);
      expect(
        issuePaths(await fails(client, "write_file", { boxId: box.id, path: "over.txt", content: `${text}t` }, "payload_too_large")),
      ).toEqual(["content"]);
      const bytes = Buffer.alloc(MiB, 0xff);
      await ok(client, "write_file", { boxId: box.id, path: "edge.bin", content: bytes.toString("base64"), encoding: "base64" });
      expect((await run(client, box.id, "wc -c < edge.bin")).stdout).toBe(`${MiB}\n`);
      const tooBig = Buffer.alloc(MiB + 1, 0xff).toString("base64");
      expect(
        issuePaths(
          await fails(client, "write_file", { boxId: box.id, path: "over.bin", content: tooBig, encoding: "base64" }, "payload_too_large"),
        ),
      ).toEqual(["content"]);
    });

    it("when read_file meets a file over 1 MiB, then payload_too_large says so; exactly 1 MiB comes back byte for byte", async () => {
      await run(client, box.id, `head -c ${MiB + 1} /dev/zero > over-limit.bin`);
      expect((await fails(client, "read_file", { boxId: box.id, path: "over-limit.bin" }, "payload_too_large")).message).toContain(
        "larger than 1 MB",
      );
      expect(await ok(client, "read_file", { boxId: box.id, path: "edge.txt" })).toMatchObject({
        encoding: "utf8",
        size: MiB,
        content: "t".repeat(MiB),
      });
      const bytes = randomBytes(MiB);
      await ok(client, "write_file", { boxId: box.id, path: "fits.bin", content: bytes.toString("base64"), encoding: "base64" });
      const read = await ok<{ content: string; encoding: string; size: number }>(client, "read_file", { boxId: box.id, path: "fits.bin" });
      expect(read).toMatchObject({ encoding: "base64", size: MiB });
      expect(Buffer.from(read.content, "base64").equals(bytes)).toBe(true);
    });
  });

  describe("files", () => {
    it("when a UTF-8 text file is written and read, then it comes back as utf8, with its size and mode", async () => {
      const content = "Olá, mundo ✓ 🚀\nsegunda linha\n";
      const written = await ok<{ path: string; size: number; mode: string }>(client, "write_file", {
        boxId: box.id,
        path: "notes/hello.txt",
        content,
      });
      expect(written).toEqual({ path: "/data/home/notes/hello.txt", size: Buffer.byteLength(content), mode: "0644" });
      const read = await ok<{ content: string; encoding: string; size: number }>(client, "read_file", {
        boxId: box.id,
        path: "/data/home/notes/hello.txt",
      });
      expect(read).toMatchObject({ content, encoding: "utf8", size: Buffer.byteLength(content) });
      expect((await run(client, box.id, "stat -c %a notes/hello.txt")).stdout).toBe("644\n");
    });

    it("when binary bytes are written as base64, then they read back byte for byte as base64", async () => {
      const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(65_536)]);
      await ok(client, "write_file", {
        boxId: box.id,
        path: "bin/blob.bin",
        content: bytes.toString("base64"),
        encoding: "base64",
        mode: "0600",
      });
      const read = await ok<{ content: string; encoding: string; size: number }>(client, "read_file", {
        boxId: box.id,
        path: "bin/blob.bin",
      });
      expect(read.encoding).toBe("base64");
      expect(Buffer.from(read.content, "base64").equals(bytes)).toBe(true);
      const inBox = await run(client, box.id, "sha256sum bin/blob.bin | cut -d' ' -f1; stat -c %a bin/blob.bin");
      expect(inBox.stdout).toBe(`${createHash("sha256").update(bytes).digest("hex")}\n600\n`);
    });

    it("when a file is overwritten, then the write is atomic: the new content replaces the old and no temporary file is left", async () => {
      await ok(client, "write_file", { boxId: box.id, path: "atomic.txt", content: "first" });
      await ok(client, "write_file", { boxId: box.id, path: "atomic.txt", content: "second", mode: "755" });
      expect((await ok<{ content: string }>(client, "read_file", { boxId: box.id, path: "atomic.txt" })).content).toBe("second");
      expect((await run(client, box.id, "ls -a; stat -c %a atomic.txt")).stdout).not.toContain(".bancada-write");
      expect((await run(client, box.id, "stat -c %a atomic.txt")).stdout).toBe("755\n");
    });

    it("when read_file names a kernel interface under /proc or /sys, directly or through a symlink, then invalid_argument says to use exec", async () => {
      await run(client, box.id, "ln -sf /proc/self/mem mem-link && ln -sf /proc/kmsg kmsg-link && printf hi > /data/home/plain.txt");
      for (const path of ["/proc/self/mem", "/proc/kmsg", "/proc/self/pagemap", "mem-link", "kmsg-link"]) {
        const error = await fails(client, "read_file", { boxId: box.id, path }, "invalid_argument");
        expect(error.message, path).toMatch(/kernel interface under \/proc or \/sys, not a file; read it with exec/);
      }
      // a path through /proc that resolves into the box's own files is still a file
      expect(
        (await ok<{ content: string }>(client, "read_file", { boxId: box.id, path: "/proc/self/root/data/home/plain.txt" })).content,
      ).toBe("hi");
    });

    it("when parents is false and the folder is missing, then not_found; a missing file is not_found; a folder is invalid_argument", async () => {
      await fails(client, "write_file", { boxId: box.id, path: "no/such/dir/file.txt", content: "x", parents: false }, "not_found");
      await fails(client, "read_file", { boxId: box.id, path: "does-not-exist.txt" }, "not_found");
      expect(issuePaths(await fails(client, "read_file", { boxId: box.id, path: "/data/home" }, "invalid_argument"))).toEqual(["path"]);
      expect(issuePaths(await fails(client, "write_file", { boxId: box.id, path: "notes", content: "x" }, "invalid_argument"))).toEqual([
        "path",
      ]);
      expect(issuePaths(await fails(client, "read_file", { boxId: box.id, path: "/dev/zero" }, "invalid_argument"))).toEqual(["path"]);
      expect(
        issuePaths(
          await fails(
            client,
            "write_file",
            { boxId: box.id, path: "x.bin", content: "not base64!", encoding: "base64" },
            "invalid_argument",
          ),
        ),
      ).toEqual(["content"]);
      expect(
        issuePaths(await fails(client, "write_file", { boxId: box.id, path: "x", content: "x", mode: "888" }, "invalid_argument")),
      ).toEqual(["mode"]);
    });
  });
});
