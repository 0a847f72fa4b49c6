/**
 * The SSH endpoint of the boxes service (ssh2, pure JavaScript): `ssh -p <port> <boxId>@<host>` opens a shell in
 * the box — or runs the command given — entered exactly as exec enters it (the box's namespaces and user). Only
 * public-key authentication, against the keys registered by the box's own account (domain/ssh/ssh-keys.ts); the
 * host key is made once and kept in the data folder, so clients see the same host key after a restart. A session
 * wakes a sleeping box and keeps it awake while it lasts. No port forwarding, no SFTP (get_upload_url serves files).
 *
 * The endpoint is open to the internet, so what a client gets before it authenticates is bounded
 * (../http/connection-gate.ts): a few connections per address, a few hundred unauthenticated ones in all, and
 * a deadline to authenticate (10 s by default). Connections are accepted by our own listener and handed to ssh2
 * only once admitted; ssh2 itself has no such limits (an idle flood once took every descriptor of the service).
 */
import { readFile, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo, type Socket } from "node:net";
import ssh2, { type AuthContext, type Connection, type ServerChannel, type Session } from "ssh2";
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxRow } from "../db/client.js";
import type { ShellRequest } from "../driver/box-driver.js";
import { awakeBox } from "../domain/awake.js";
import { secretEnv } from "../domain/secrets/secrets.js";
import type { BoxesRuntime } from "../domain/context.js";
import { boxHandle } from "../domain/find-box.js";
import { boxIdPattern } from "../domain/schemas/common.js";
import { sshCommandOf, sshEndpoints } from "../domain/ssh/ssh-command.js";
import { sshFingerprint } from "../domain/ssh/ssh-keys.js";
import { keepAwake } from "../domain/transfers/open-transfer.js";
import type { SshLimits } from "../config.js";
import { ConnectionGate, type Settle } from "../http/connection-gate.js";

/** Connections the kernel may hold for accepting (capped by net.core.somaxconn). */
const acceptQueue = 4096;

export interface SshEndpoint {
  /** The port it listens on (a free one when asked for 0). */
  port: number;
  close(): Promise<void>;
}

export async function startSshServer(
  rt: BoxesRuntime,
  options: { port: number; bindHost: string; hostKeyFile: string; limits: SshLimits },
): Promise<SshEndpoint> {
  const { perAddress, unauthenticated, authTimeoutMs } = options.limits;
  const gate = new ConnectionGate({ perAddress, total: Number.POSITIVE_INFINITY, pending: unauthenticated, pendingMs: authTimeoutMs });
  // ssh2 names a client by its peer's address and port: how an authenticated client settles its admission
  const admitted = new Map<string, Settle>();
  const server = new ssh2.Server({ hostKeys: [await hostKey(options.hostKeyFile)] }, (client, info) =>
    serveClient(rt, client, admitted.get(`${info.ip}|${info.port}`)),
  );
  const sockets = new Set<Socket>();
  const listener = createServer((socket) => {
    const settle = gate.admit(socket);
    if (!settle) return;
    const peer = `${socket.remoteAddress}|${socket.remotePort}`;
    admitted.set(peer, settle);
    sockets.add(socket);
    socket.once("close", () => {
      admitted.delete(peer);
      sockets.delete(socket);
    });
    server.injectSocket(socket);
  });
  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    // a deep accept queue: a burst is accepted (and what is over the caps closed) rather than left half-open by the kernel
    listener.listen({ port: options.port, host: options.bindHost, backlog: acceptQueue }, () => {
      listener.removeListener("error", reject);
      resolve();
    });
  });
  listener.on("error", (err: Error) => rt.log.warn({ err }, "ssh server"));
  server.on("error", (err: Error) => rt.log.warn({ err }, "ssh server"));
  return {
    port: (listener.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        listener.close(() => resolve());
      }),
  };
}

function serveClient(rt: BoxesRuntime, client: Connection, settle: Settle | undefined): void {
  let box: BoxRow | null = null;
  client.on("error", () => {});
  // authenticated: the connection leaves the unauthenticated count and its deadline
  client.once("ready", () => settle?.());
  client.on("authentication", (ctx) => {
    void authenticate(rt, ctx).then(
      (row) => {
        if (row && ctx.method === "publickey" && ctx.signature) box = row;
        if (row) ctx.accept();
        else ctx.reject(["publickey"]);
      },
      () => ctx.reject(["publickey"]),
    );
  });
  client.on("ready", () => {
    client.on("session", (accept) => {
      if (box) serveSession(rt, box, accept());
    });
  });
}

/** The box named by the user name, when the offered key is one of its account's (and, once signed, the signature holds). */
async function authenticate(rt: BoxesRuntime, ctx: AuthContext): Promise<BoxRow | null> {
  if (ctx.method !== "publickey" || !boxIdPattern.test(ctx.username)) return null;
  const box = await rt.db.box.findUnique({ where: { id: ctx.username } });
  if (!box || box.state === "deleted" || box.state === "deleting") return null;
  const known = await rt.db.sshKey.findFirst({ where: { accountId: box.accountId, fingerprint: sshFingerprint(ctx.key.data) } });
  if (!known) return null;
  if (!ctx.signature) return box;
  const key = ssh2.utils.parseKey(known.publicKey);
  const parsed = Array.isArray(key) ? key[0] : key;
  if (!parsed || parsed instanceof Error) return null;
  return parsed.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) === true ? box : null;
}

function serveSession(rt: BoxesRuntime, box: BoxRow, session: Session): void {
  let terminal: ShellRequest["terminal"] = null;
  const env: Record<string, string> = {};
  session.on("pty", (accept, _reject, info) => {
    // ssh2 passes the terminal type as `term` although its type declarations omit it
    const term = (info as { term?: string }).term;
    terminal = { term: term || "xterm", rows: info.rows || 24, cols: info.cols || 80 };
    accept?.();
  });
  session.on("env", (accept, reject, info) => {
    if (/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(info.key) && !info.key.startsWith("BANCADA_")) {
      env[info.key] = info.val;
      accept?.();
    } else reject?.();
  });
  // The pty's size is set when the shell starts; later changes are not passed on (the in-box pty has no handle here).
  session.on("window-change", (accept) => accept?.());
  session.on("shell", (accept) => void run(rt, box, accept(), { command: null, terminal, env }));
  session.on("exec", (accept, _reject, info) => void run(rt, box, accept(), { command: info.command, terminal, env }));
  session.on("subsystem", (_accept, reject) => reject());
}

async function run(rt: BoxesRuntime, box: BoxRow, channel: ServerChannel, request: ShellRequest): Promise<void> {
  try {
    const ctx = { ...rt, accountId: box.accountId, personId: box.createdBy, agentId: "ssh" };
    // a session runs on the box's own node: sshCommand names that node's endpoint, this one cannot relay it
    if (box.node !== rt.driver.node) {
      const command = sshCommandOf(await sshEndpoints(rt, [box]), box);
      throw new DomainError(
        ErrorCode.unavailable,
        `box ${box.id} lives on node ${box.node}, not on this one: ${command ? `connect with ${command}` : "that node has no SSH endpoint"}`,
      );
    }
    const awake = await awakeBox(ctx, box.id, "an SSH session");
    // The box's secrets, as exec gets them (opened now); a variable the client sent (SendEnv) wins, as a call's env does.
    const env = { ...(await secretEnv(rt, awake)), ...request.env };
    const shell = await rt.driver.openShell(boxHandle(awake), { ...request, env });
    const done = keepAwake(rt, box.id);
    channel.pipe(shell.stdin);
    shell.stdout.pipe(channel, { end: false });
    shell.stderr.pipe(channel.stderr, { end: false });
    channel.once("close", () => void shell.kill());
    const outputEnded = Promise.all([ended(shell.stdout), ended(shell.stderr)]);
    const { code, signal } = await shell.exited;
    await Promise.race([outputEnded, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    done();
    if (signal) channel.exit(signal.replace(/^SIG/, ""), false, "");
    else channel.exit(code ?? 255);
    channel.end();
  } catch (error) {
    const message = error instanceof DomainError ? error.message : "the box could not start the session";
    channel.stderr.write(`bancada: ${message}\r\n`);
    channel.exit(1);
    channel.end();
  }
}

function ended(stream: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve) => {
    stream.once("end", resolve);
    stream.once("close", resolve);
    stream.once("error", resolve);
  });
}

/** The host key: made once (ed25519) and kept (0600) in the data folder. */
async function hostKey(file: string): Promise<string> {
  const kept = await readFile(file, "utf8").catch(() => null);
  if (kept) return kept;
  const made = ssh2.utils.generateKeyPairSync("ed25519");
  await writeFile(file, made.private, { mode: 0o600, flag: "wx" }).catch(() => {});
  return readFile(file, "utf8");
}
