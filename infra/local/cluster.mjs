#!/usr/bin/env node
/**
 * The rehearsal of a multi-process deployment on one machine:
 *
 *   node infra/local/cluster.mjs up --dir <folder>     a 3-node NATS cluster with TLS on client connections and on
 *                                                      the routes, one user per component, two gateways and two
 *                                                      replicas of every service, each `bancada start --only <c>`
 *   node infra/local/cluster.mjs down --dir <folder>   stops them (SIGTERM, then SIGKILL after a grace period)
 *
 * `up` writes `<folder>/cluster.json` (gateways' MCP URLs, NATS nodes, the CA the servers' certificates chain to,
 * every process with its pid and environment, the API key) and `<folder>/logs/<component>-<n>.log`. The
 * certificates are made with openssl in `<folder>/nats/tls/` (infra/nats/tls.mjs). PostgreSQL is DATABASE_URL's
 * (the database named there is created if missing), or the embedded one shared by every process through one data
 * folder; every process shares that data folder, so the drafts replicas keep their assets in one place.
 * Options: --gateways N, --scripts N, --boards N, --docs N, --drafts N, --boxes N (replicas, 2 each; boxes' are its
 *   control plane, and one node agent runs beside them, as on Kubernetes), --root
 * <subject root>, --auth on|off|auto (auto: on once the command reads NATS_USER/NATS_PASSWORD), --tls on|off (on:
 * `tls://` URLs and NATS_TLS_CA), --env KEY=VALUE (repeatable, for every process), --grace <seconds> (down),
 * --ready-timeout <seconds> (up).
 */
import { spawn, spawnSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { defaultRoot, renderAuthorization, serviceNames } from "../nats/permissions.mjs";
import { indent, makeCertificates, renderClientTls, renderRouteTls } from "../nats/tls.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const bancada = path.join(repo, "cli/bin/bancada.mjs");
const natsServer = process.env.NATS_SERVER_BIN || "/usr/sbin/nats-server";
const natsNodes = 3;

const say = (line) => process.stdout.write(`[cluster] ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the command connects with NATS_USER/NATS_PASSWORD yet (cli/src/env.ts reads them). */
export function cliReadsNatsAuth() {
  return /NATS_USER/.test(readFileSync(path.join(repo, "cli/src/env.ts"), "utf8"));
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
};

function tail(file, lines = 15) {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

async function answers(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

/** Spawns a detached process writing to its log: it outlives `up`; `down` stops it by pid. */
function launch(command, args, { env, log }) {
  const fd = openSync(log, "a");
  const child = spawn(command, args, { cwd: repo, env, detached: true, stdio: ["ignore", fd, fd] });
  child.unref();
  const exited = { code: undefined };
  child.once("exit", (code, signal) => (exited.code = code ?? signal));
  return { pid: child.pid, exited };
}

function natsNodeConfig({ name, port, clusterPort, monitorPort, routes, routeUser, routePassword, storeDir, auth, tls }) {
  return [
    `server_name: ${JSON.stringify(name)}`,
    `listen: "127.0.0.1:${port}"`,
    `http: "127.0.0.1:${monitorPort}"`,
    `jetstream { store_dir: ${JSON.stringify(storeDir)}, max_memory_store: 64MB, max_file_store: 256MB }`,
    ...(tls ? [renderClientTls(tls)] : []),
    "cluster {",
    '  name: "bancada-rehearsal"',
    `  listen: "127.0.0.1:${clusterPort}"`,
    `  authorization { user: ${JSON.stringify(routeUser)}, password: ${JSON.stringify(routePassword)} }`,
    `  routes: [${routes.map((route) => JSON.stringify(`nats-route://${routeUser}:${routePassword}@127.0.0.1:${route}`)).join(", ")}]`,
    ...(tls ? [indent(renderRouteTls(tls))] : []),
    "}",
    ...(auth ? ['include "auth.conf"'] : []),
    "",
  ].join("\n");
}

export async function up(options) {
  const dir = path.resolve(options.dir);
  const logs = path.join(dir, "logs");
  const clusterFile = path.join(dir, "cluster.json");
  if (existsSync(clusterFile)) {
    const previous = JSON.parse(readFileSync(clusterFile, "utf8"));
    const running = [...previous.nats, ...previous.processes].filter((entry) => alive(entry.pid));
    if (running.length) throw new Error(`${clusterFile} names ${running.length} running processes: run 'down --dir ${options.dir}' first.`);
  }
  rmSync(path.join(dir, "nats"), { recursive: true, force: true });
  rmSync(logs, { recursive: true, force: true });
  mkdirSync(logs, { recursive: true });
  mkdirSync(path.join(dir, "nats"), { recursive: true });
  const root = options.root ?? defaultRoot;
  const auth = options.auth === "auto" ? cliReadsNatsAuth() : options.auth === "on";
  const started = { nats: [], processes: [] };
  const stopStarted = () => stopAll([...started.processes, ...started.nats], 5_000);

  try {
    say("bundling the command if its sources changed (cli/dist)");
    const bundled = spawnSync(process.execPath, [path.join(repo, "cli/scripts/bundle.mjs"), "--if-stale"], { cwd: repo, encoding: "utf8" });
    if (bundled.status !== 0) throw new Error(`bundling failed:\n${bundled.stderr}`);

    // NATS: three nodes, routes between them on loopback, one user per component (literal passwords here)
    const components = ["gateway", ...serviceNames()];
    const passwords = Object.fromEntries(components.map((component) => [component, randomBytes(18).toString("base64url")]));
    writeFileSync(path.join(dir, "nats/auth.conf"), renderAuthorization({ root, password: (component) => passwords[component] }), {
      mode: 0o600,
    });
    const nodes = [];
    for (let n = 1; n <= natsNodes; n++)
      nodes.push({ name: `n${n}`, port: await freePort(), clusterPort: await freePort(), monitorPort: await freePort() });
    const routePassword = randomBytes(18).toString("base64url");
    // one CA; the servers' certificate serves the client port and the routes (loopback names only)
    const tls = options.tls ? makeCertificates(path.join(dir, "nats/tls"), { hosts: ["127.0.0.1", "localhost"] }) : undefined;
    for (const node of nodes) {
      const conf = path.join(dir, "nats", `${node.name}.conf`);
      const storeDir = path.join(dir, "nats", `${node.name}-store`);
      const routes = nodes.filter((other) => other !== node).map((other) => other.clusterPort);
      writeFileSync(conf, natsNodeConfig({ ...node, routes, routeUser: "route", routePassword, storeDir, auth, tls }), { mode: 0o600 });
      const log = path.join(logs, `nats-${node.name.slice(1)}.log`);
      const proc = launch(natsServer, ["-c", conf], { env: process.env, log });
      node.url = `${tls ? "tls" : "nats"}://127.0.0.1:${node.port}`;
      started.nats.push({ url: node.url, pid: proc.pid, monitor: `http://127.0.0.1:${node.monitorPort}`, log, proc });
    }
    say(
      `NATS: ${nodes.map((node) => node.url).join(", ")} (${auth ? "one user per component" : "no authentication: the command does not read NATS_USER yet"}; ${tls ? `TLS on clients and routes, CA ${tls.caFile}` : "no TLS"})`,
    );
    await waitFor("the NATS nodes", options.readyTimeoutMs, started.nats, async (node) => answers(`${node.monitor}/healthz`));

    // one bus master (each service's key derived from it as the gateway derives it: docs/gateway.md#trust), one
    // pepper, one database, one API key
    const master = randomBytes(32);
    const signingKey = master.toString("base64");
    const busKeyOf = (service) => `${service}:${createHmac("sha256", master).update(`bancada bus key v1\0${service}`).digest("base64")}`;
    const pepper = randomBytes(32).toString("base64url");
    // every boxes replica seals and opens workspace secrets with the same key
    const secretsKey = randomBytes(32).toString("base64");
    const dataDir = path.join(dir, "data");
    const base = { ...process.env };
    for (const name of Object.keys(base))
      if (/^(NATS_|BANCADA_|DATABASE_URL$|.*_DATABASE_URL$|.*_PORT$|PORT$|HOST$)/.test(name)) delete base[name];
    const database = process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {};
    const common = {
      ...base,
      ...database,
      BANCADA_DATA_DIR: dataDir,
      BANCADA_SUBJECT_ROOT: root,
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      ...options.env,
    };
    say(`PostgreSQL: ${process.env.DATABASE_URL ? redact(process.env.DATABASE_URL) : `embedded, shared through ${dataDir}`}`);
    say("creating an API key (bancada keys create; applies the gateway's migrations)");
    const created = spawnSync(
      process.execPath,
      [
        bancada,
        "keys",
        "create",
        "--account",
        "rehearsal",
        "--person",
        "operator",
        "--agent",
        "rehearsal",
        "--scopes",
        "all",
        "--allow-writes",
        "--json",
      ],
      { cwd: repo, env: { ...common, BANCADA_KEY_PEPPER: pepper }, encoding: "utf8", timeout: 120_000 },
    );
    if (created.status !== 0) throw new Error(`bancada keys create failed:\n${created.stderr}${created.stdout}`);
    const apiKey = JSON.parse(created.stdout.trim().split("\n").pop()).key;

    // the components: replicas, each with its own NATS user, REST or HTTP port and log
    const replicas = options.replicas;
    // The first replica of each service, one after the other, each up before the next: their first start applies
    // their migrations, and two services creating the same PostgreSQL extension at once collide. Boards first: with
    // the embedded PostgreSQL the first process runs the server, and boards-1 is never killed in the rehearsal.
    // Then the gateways (whose migrations `keys create` applied) and the other replicas, all at once.
    const services = ["boards", ...components.filter((c) => c !== "boards" && c !== "gateway")];
    const plan = services.map((component) => ({ component, n: 1, wait: true }));
    for (const component of components) {
      for (let n = component === "gateway" ? 1 : 2; n <= (replicas[component] ?? 1); n++) plan.push({ component, n, wait: false });
    }
    // boxes as on Kubernetes: its replicas are the control plane (BOXES_ROLE=control), and this machine runs one node
    // agent (BOXES_ROLE=node, the DaemonSet's pod), which holds the boxes
    if (components.includes("boxes")) plan.push({ component: "boxes-node", n: 1, wait: false });
    const urls = nodes.map((node) => node.url);
    // the first gateway is the one public entry: the URLs the product hands out (transfer URLs) name it
    const entryPort = await freePort();
    common.BANCADA_PUBLIC_URL ??= `http://127.0.0.1:${entryPort}`;
    // a gateway relays each service's REST routes to that service's first replica (`<SERVICE>_INTERNAL_URL`)
    const internalUrls = () =>
      Object.fromEntries(
        started.processes
          .filter((p) => p.component !== "gateway" && p.component !== "boxes-node" && p.n === 1)
          .map((p) => [`${p.component.toUpperCase()}_INTERNAL_URL`, p.url]),
      );
    for (const [index, entry] of plan.entries()) {
      const port = entry.component === "gateway" && entry.n === 1 ? entryPort : await freePort();
      // several servers once the command takes them; else one each, spread over the nodes (the client learns the others)
      const rotated = [...urls.slice(index % urls.length), ...urls.slice(0, index % urls.length)];
      // the node agent is a part of boxes: it runs the boxes service, as the boxes NATS user with the boxes key
      const service = entry.component === "boxes-node" ? "boxes" : entry.component;
      const env = {
        ...common,
        NATS_URL: auth ? rotated.join(",") : rotated[0],
        NATS_USER: service,
        NATS_PASSWORD: passwords[service],
        ...(tls ? { NATS_TLS_CA: tls.caFile } : {}),
        ...(service === "gateway"
          ? { BANCADA_BUS_SIGNING_KEY: signingKey, BANCADA_KEY_PEPPER: pepper, PORT: String(port), ...internalUrls() }
          : { BANCADA_BUS_VERIFY_KEY: busKeyOf(service), [`${service.toUpperCase()}_PORT`]: String(port) }),
        ...(service === "boxes" ? { BOXES_SECRETS_KEY: secretsKey } : {}),
        ...(entry.component === "boxes" ? { BOXES_ROLE: "control", BOXES_NODE: `boxes-${entry.n}` } : {}),
        ...(entry.component === "boxes-node"
          ? { BOXES_ROLE: "node", BOXES_NODE: "rehearsal-node", BOXES_PUBLIC_URL: `http://127.0.0.1:${port}`, BOXES_SSH_PORT: "0" }
          : {}),
      };
      const log = path.join(logs, `${entry.component}-${entry.n}.log`);
      const proc = launch(process.execPath, [bancada, "start", "--only", service], { env, log });
      const url = `http://127.0.0.1:${port}`;
      started.processes.push({ component: entry.component, n: entry.n, pid: proc.pid, url, log, env: visibleEnv(env, base), proc });
      say(`started ${entry.component}-${entry.n} (pid ${proc.pid}, ${url})`);
      if (entry.wait)
        await waitFor(`${entry.component}-1`, options.readyTimeoutMs, [started.processes.at(-1)], (p) => answers(`${p.url}/healthz`));
    }
    const gateways = started.processes.filter((p) => p.component === "gateway");
    await waitFor("every gateway's /readyz", options.readyTimeoutMs, started.processes, async (p) =>
      p.component === "gateway" ? answers(`${p.url}/readyz`) : answers(`${p.url}/healthz`),
    );
    const cluster = {
      gateways: gateways.map((p) => `${p.url}/mcp`),
      nats: started.nats.map(({ url, pid, monitor, log }) => ({ url, pid, monitor, log })),
      processes: started.processes.map(({ component, n, pid, url, log, env }) => ({ component, n, pid, url, log, env })),
      apiKey,
      auth,
      tls: tls ? { caFile: tls.caFile } : null,
      root,
      database: process.env.DATABASE_URL ? redact(process.env.DATABASE_URL) : `embedded (${dataDir})`,
    };
    writeFileSync(clusterFile, `${JSON.stringify(cluster, null, 2)}\n`, { mode: 0o600 });
    say(`ready: ${cluster.gateways.join(" ")}`);
    say(`API key (every scope, writes allowed): ${apiKey}`);
    say(`wrote ${clusterFile}; logs in ${logs}; stop with: node infra/local/cluster.mjs down --dir ${options.dir}`);
    return cluster;
  } catch (error) {
    say(`failed: ${error.message}`);
    await stopStarted();
    throw error;
  }
}

/** The environment a process got, less what every process inherits from this shell. */
function visibleEnv(env, base) {
  return Object.fromEntries(Object.entries(env).filter(([name, value]) => base[name] !== value));
}

function redact(url) {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

async function waitFor(what, timeoutMs, entries, ready) {
  const started = Date.now();
  const pending = new Set(entries);
  let reported = 0;
  while (pending.size) {
    for (const entry of [...pending]) {
      if (entry.proc?.exited.code !== undefined) {
        throw new Error(
          `${entry.component ? `${entry.component}-${entry.n}` : entry.url} exited (${entry.proc.exited.code}):\n${tail(entry.log)}`,
        );
      }
      if (await ready(entry)) pending.delete(entry);
    }
    if (!pending.size) break;
    const waited = Date.now() - started;
    if (waited > timeoutMs) {
      const names = [...pending].map((e) => (e.component ? `${e.component}-${e.n}` : e.url));
      throw new Error(`${what}: still not ready after ${Math.round(waited / 1000)} s: ${names.join(", ")}\n${tail([...pending][0].log)}`);
    }
    if (waited - reported >= 5_000) {
      reported = waited;
      say(`waiting for ${what} (${Math.round(waited / 1000)} s; ${pending.size} to go)`);
    }
    await sleep(250);
  }
  say(`${what}: ready`);
}

/** SIGTERM to each, then SIGKILL to whatever still runs after `graceMs`. */
async function stopAll(entries, graceMs) {
  const running = entries.filter((entry) => entry.pid && alive(entry.pid));
  for (const entry of running) {
    try {
      process.kill(entry.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  const until = Date.now() + graceMs;
  while (running.some((entry) => alive(entry.pid)) && Date.now() < until) await sleep(100);
  const stubborn = running.filter((entry) => alive(entry.pid));
  for (const entry of stubborn) {
    try {
      process.kill(entry.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return { stopped: running.length, killed: stubborn.length };
}

export async function down(options) {
  const dir = path.resolve(options.dir);
  const clusterFile = path.join(dir, "cluster.json");
  if (!existsSync(clusterFile)) throw new Error(`${clusterFile} does not exist: nothing to stop.`);
  const cluster = JSON.parse(readFileSync(clusterFile, "utf8"));
  // the components first (they drain their calls over NATS), then NATS
  const components = await stopAll(cluster.processes, options.graceMs);
  say(
    `components: ${components.stopped} stopped${components.killed ? `, ${components.killed} killed after ${options.graceMs / 1000} s` : ""}`,
  );
  // the embedded PostgreSQL belongs to its first process: if that one was killed, the server is left alone
  const postmaster = path.join(dir, "data/pg/postmaster.pid");
  if (existsSync(postmaster)) {
    const pid = Number(readFileSync(postmaster, "utf8").split("\n")[0]);
    if (pid && alive(pid)) {
      process.kill(pid, "SIGINT");
      say(`embedded PostgreSQL (pid ${pid}): fast shutdown`);
    }
  }
  const nats = await stopAll(cluster.nats, options.graceMs);
  say(`NATS: ${nats.stopped} nodes stopped${nats.killed ? `, ${nats.killed} killed` : ""}`);
}

async function main(argv) {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      dir: { type: "string" },
      ...Object.fromEntries(["gateways", ...serviceNames()].map((component) => [component, { type: "string", default: "2" }])),
      tls: { type: "string", default: "on" },
      root: { type: "string", default: defaultRoot },
      auth: { type: "string", default: "auto" },
      env: { type: "string", multiple: true, default: [] },
      grace: { type: "string", default: "15" },
      "ready-timeout": { type: "string", default: "120" },
    },
  });
  if (
    !values.dir ||
    !["up", "down"].includes(command) ||
    !["auto", "on", "off"].includes(values.auth) ||
    !["on", "off"].includes(values.tls)
  ) {
    process.stderr.write(
      "Usage: node infra/local/cluster.mjs up|down --dir <folder> [--gateways 2 --scripts 2 --boards 2 --docs 2 --drafts 2 --boxes 2] [--tls on|off] [--env K=V]\n",
    );
    process.exit(2);
  }
  if (command === "down") return down({ dir: values.dir, graceMs: Number(values.grace) * 1000 });
  const env = Object.fromEntries(values.env.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
  await up({
    dir: values.dir,
    replicas: Object.fromEntries(
      ["gateway", ...serviceNames()].map((component) => [component, Number(values[component === "gateway" ? "gateways" : component])]),
    ),
    root: values.root,
    tls: values.tls === "on",
    auth: values.auth,
    env,
    readyTimeoutMs: Number(values["ready-timeout"]) * 1000,
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`cluster: ${error.message}\n`);
      process.exit(1);
    },
  );
}
