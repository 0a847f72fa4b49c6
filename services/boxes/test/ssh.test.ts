/**
 * SSH into boxes with Debian's real OpenSSH client: keys registered over REST, get_box's sshCommand, a command and
 * its exit status, a pty, an interactive shell fed through stdin, keys refused (none, unknown, deleted, another
 * account's), and the REST edges of /v1/ssh-keys; the authentication deadline drops a client that never
 * authenticates and leaves an authenticated session alone.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { captureLogs, connectClient, startStack, type Stack } from "@bancada/e2e";
import { boxesTestStack, describeBoxes, type BoxesTestStack } from "./stack.js";
import { allScopes, hasSsh, ok, restClient, sshOptions, type Box } from "./helpers.js";

/** Tests that drive OpenSSH's client; where it is missing (apt-get install openssh-client) they say they are skipped. */
const itSsh = hasSsh ? it : it.skip;

const authTimeoutMs = 2_000;

describeBoxes("ssh into boxes", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let client: Client;
  let key: string;
  let box: Box;
  let dir: string;
  let port: number;
  const logs = captureLogs("debug");

  const keyPair = (name: string) => {
    const file = path.join(dir, name);
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", `${name}@test`, "-f", file]);
    return { file, pub: readFileSync(`${file}.pub`, "utf8") };
  };

  /** Runs OpenSSH's ssh against the service; resolves with its exit code and output. */
  const ssh = (identity: string, user: string, args: string[], input?: string, command: string | null = args.at(-1) ?? null) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        "ssh",
        [
          ...sshOptions(identity, path.join(dir, "known_hosts")),
          "-p",
          String(port),
          ...(command === null ? args : args.slice(0, -1)),
          `${user}@127.0.0.1`,
          ...(command === null ? [] : [command]),
        ],
        { stdio: ["pipe", "pipe", "pipe"] },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(input ?? "");
    });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "bancada-ssh-test-"));
    boxes = boxesTestStack({ sshPort: 0, sshLimits: { authTimeoutMs }, portsBindHost: "127.0.0.1", portsHost: "127.0.0.1" });
    stack = await startStack({ services: { boxes: boxes.factory }, log: logs.log });
    key = await stack.createKey({ scopes: allScopes });
    client = await connectClient(stack.mcpUrl, key);
    box = (await ok(client, "create_box", { name: "ssh-box" })).box;
    const ssh = boxes.service().runtime.ssh;
    if (ssh.port === null) throw new Error(`the SSH endpoint did not start: ${ssh.failure ?? "no reason recorded"}`);
    port = ssh.port;
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
    await boxes?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  let mine: { file: string; pub: string };
  let mineId: string;

  itSsh("when a key is registered, then get_box's sshCommand runs a command in the box as its root, with its exit status", async () => {
    mine = keyPair("mine");
    const rest = restClient(stack.baseUrl, key);
    const added = await rest<{ key: { id: string; fingerprint: string; name: string } }>("POST", "/v1/ssh-keys", { publicKey: mine.pub });
    expect(added.status).toBe(201);
    mineId = added.body.key.id;
    expect(added.body.key.name).toBe("mine@test");
    expect(execFileSync("ssh-keygen", ["-l", "-f", `${mine.file}.pub`]).toString()).toContain(added.body.key.fingerprint);
    const shown = (await ok(client, "get_box", { boxId: box.id })).box;
    expect(shown.sshCommand).toBe(`ssh -p ${port} ${box.id}@127.0.0.1`);
    const listed = await ok<{ boxes: Box[] }>(client, "list_boxes", {});
    expect(listed.boxes[0]!.sshCommand).toBe(shown.sshCommand);

    const result = await ssh(mine.file, box.id, ["id -u; hostname; pwd; echo err >&2; exit 3"]);
    expect(result.stdout).toBe("0\nssh-box\n/data/home\n");
    expect(result.stderr).toContain("err");
    expect(result.code).toBe(3);
  });

  itSsh(
    "when the box uses a workspace secret, then an SSH session has it in its environment, and no log line holds the value",
    async () => {
      const value = `ssh-secret-${randomBytes(12).toString("hex")}`;
      const rest = restClient(stack.baseUrl, key);
      expect((await rest("PUT", "/v1/secrets/SSH_TOKEN", { value })).status).toBe(200);
      const withSecret = (await ok(client, "create_box", { name: "ssh-secret", secrets: ["SSH_TOKEN"] })).box;
      try {
        const result = await ssh(mine.file, withSecret.id, ["env"]);
        expect(result.code).toBe(0);
        expect(result.stdout).toContain(`SSH_TOKEN=${value}\n`);
        // An interactive shell (a pty) gets it too.
        const shell = await ssh(mine.file, withSecret.id, ["-tt"], "echo got-$SSH_TOKEN\nexit 0\n", null);
        expect(shell.stdout).toContain(`got-${value}`);
        // A replaced value reaches the next session.
        expect((await rest("PUT", "/v1/secrets/SSH_TOKEN", { value: `${value}-2` })).status).toBe(200);
        expect((await ssh(mine.file, withSecret.id, ["printenv SSH_TOKEN"])).stdout).toBe(`${value}-2\n`);
        // Without the secret in the box's list, a session never sees it.
        expect((await ssh(mine.file, box.id, ["env"])).stdout).not.toContain("SSH_TOKEN");
        expect(logs.text().length).toBeGreaterThan(0);
        expect(logs.text()).not.toContain(value);
      } finally {
        await ok(client, "delete_box", { boxId: withSecret.id, confirm: true });
      }
    },
  );

  itSsh("when a client never authenticates, then the deadline drops it; an authenticated session outlives the deadline", async () => {
    const started = Date.now();
    const silent = await new Promise<{ banner: string; after: number }>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => socket.write("SSH-2.0-silent\r\n"));
      let banner = "";
      socket.on("data", (chunk: Buffer) => (banner += chunk.toString("latin1")));
      socket.on("error", () => {});
      socket.on("close", () => resolve({ banner, after: Date.now() - started }));
      setTimeout(() => socket.destroy(), authTimeoutMs * 5).unref();
    });
    expect(silent.banner).toMatch(/^SSH-2\.0-/);
    expect(silent.after).toBeGreaterThanOrEqual(authTimeoutMs - 100);
    expect(silent.after).toBeLessThan(authTimeoutMs * 4);
    const slow = await ssh(mine.file, box.id, [`sleep ${(authTimeoutMs * 1.5) / 1000}; echo still-here`]);
    expect(slow.stdout).toBe("still-here\n");
    expect(slow.code).toBe(0);
  });

  itSsh("when a terminal is asked for, then the command runs on a pty in the box", async () => {
    const result = await ssh(mine.file, box.id, ["-tt", "tty; echo TERM=$TERM; stty size"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\/dev\/pts\/\d+/);
  });

  itSsh("when an interactive shell is fed through stdin, then it runs what is typed and ends with exit", async () => {
    const result = await ssh(mine.file, box.id, ["-tt"], "echo typed-$((40+2)); echo typed-$((40+2)) > /data/home/typed\nexit 0\n", null);
    expect(result.stdout).toContain("typed-42");
    const read = await ok<{ content: string }>(client, "read_file", { boxId: box.id, path: "typed" });
    expect(read.content).toBe("typed-42\n");
  });

  itSsh("when the key is unknown, another account's, or deleted, then ssh is refused", async () => {
    const stranger = keyPair("stranger");
    expect((await ssh(stranger.file, box.id, ["true"])).stderr).toContain("Permission denied");
    // Account B registers its own key: it opens B's boxes, never A's.
    const keyB = await stack.createKey({ accountId: "acct-b", scopes: allScopes });
    const restB = restClient(stack.baseUrl, keyB);
    expect((await restB("POST", "/v1/ssh-keys", { publicKey: stranger.pub })).status).toBe(201);
    expect((await ssh(stranger.file, box.id, ["true"])).stderr).toContain("Permission denied");
    expect((await restB<{ keys: unknown[] }>("GET", "/v1/ssh-keys")).body.keys).toHaveLength(1);
    expect((await restB("DELETE", `/v1/ssh-keys/${mineId}`)).status).toBe(404);
    expect((await ssh(mine.file, "bx_doesnotexist", ["true"])).stderr).toContain("Permission denied");
    const rest = restClient(stack.baseUrl, key);
    expect((await rest("DELETE", `/v1/ssh-keys/${mineId}`)).status).toBe(200);
    expect((await ssh(mine.file, box.id, ["true"])).stderr).toContain("Permission denied");
  });

  it("when /v1/ssh-keys gets a bad key, a private key, a repeat or too small a scope, then it says so", async () => {
    const rest = restClient(stack.baseUrl, key);
    expect((await rest("POST", "/v1/ssh-keys", { publicKey: "not a key" })).status).toBe(400);
    const pair = keyPair("again");
    const secret = await rest<{ error: { message: string } }>("POST", "/v1/ssh-keys", { publicKey: readFileSync(pair.file, "utf8") });
    expect(secret.status).toBe(400);
    expect(secret.body.error.message).toContain("PRIVATE");
    expect((await rest("POST", "/v1/ssh-keys", { publicKey: pair.pub, name: "again" })).status).toBe(201);
    expect((await rest("POST", "/v1/ssh-keys", { publicKey: pair.pub })).status).toBe(409);
    const readOnly = restClient(stack.baseUrl, await stack.createKey({ scopes: ["boxes:read"] }));
    expect((await readOnly("POST", "/v1/ssh-keys", { publicKey: keyPair("ro").pub })).status).toBe(403);
    expect((await readOnly("GET", "/v1/ssh-keys")).status).toBe(200);
  });
});
