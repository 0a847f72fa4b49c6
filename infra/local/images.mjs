#!/usr/bin/env node
/**
 * The rehearsal from the images: the pods of `kubectl kustomize infra/k8s/overlays/dev` as podman containers.
 *
 *   node infra/images/build.mjs                                  # once: the images (cached by podman)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/rehearsal \
 *     node infra/local/images.mjs up --dir /tmp/rehearsal        # every pod of the overlay, ready
 *   node infra/local/images.mjs down --dir /tmp/rehearsal
 *
 * Every container takes its image, command, args, environment (Secrets and ConfigMaps resolved), ports, volumes,
 * probes, resources and security context from the rendered manifests (infra/local/podman.mjs); each workload runs
 * its manifest's replicas (the HorizontalPodAutoscaler's minimum when higher), each pod its init containers first.
 * A pod is ready when its startup probe and then its readiness probe answer, polled from the host as the kubelet
 * polls them. What the rehearsal supplies itself, because it has no Kubernetes cluster around it:
 * - a podman network; each pod an address in it, each Service's name (and a StatefulSet pod's
 *   `<pod>.<headless Service>`) in every container's /etc/hosts;
 * - PostgreSQL: DATABASE_URL replaces the dev Secret's (an external server, as in the dev overlay). A server on
 *   the host's loopback is reached through a forwarder (socat) on the host's address in the network;
 * - one machine: a DaemonSet runs one pod, every pod's spec.nodeName is rehearsal-node, a hostPath volume a folder
 *   under <dir>/hosts;
 * - the images: the manifests' Bancada images are built under their rendered names (infra/images/build.mjs);
 *   `nats:*` runs as Debian's nats-server on the same base (`--image from=to` maps any other);
 * - no Ingress: clients reach the gateways by their pod address, which is added to BANCADA_ALLOWED_HOSTS.
 * `up` writes `<dir>/cluster.json` in the shape of infra/local/cluster.mjs's (pids are the containers' main
 * processes on the host), with each container's name.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { connect } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parseAllDocuments } from "yaml";
import { buildImages, natsImage } from "../images/build.mjs";
import { ensureBase, podmanEnv } from "../images/base.mjs";
import { dataOf, indexObjects, probeOf, quantity, runArgs, userOf, volumeFiles } from "./podman.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const say = (line) => process.stdout.write(`[images] ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function podman(args, options = {}) {
  const result = spawnSync("podman", args, {
    env: podmanEnv(options.env ?? process.env),
    encoding: "utf8",
    timeout: options.timeoutMs ?? 120_000,
  });
  if (result.status !== 0 && !options.allowFailure)
    throw new Error(`podman ${args.slice(0, 3).join(" ")} failed (${result.status}): ${result.stderr}${result.stdout}`.slice(0, 4000));
  return result;
}

/** Whether podman can run containers here; the reason when it cannot. */
export function podmanMissing() {
  const version = spawnSync("podman", ["--version"], { encoding: "utf8" });
  if (version.error || version.status !== 0) return "podman is not installed (apt-get install podman runc)";
  if (process.getuid?.() !== 0) return "the rehearsal from the images runs rootful podman (root): the boxes pod is privileged";
  for (const tool of ["kubectl", "socat"]) {
    const found = spawnSync(tool, tool === "kubectl" ? ["version", "--client"] : ["-V"], { encoding: "utf8" });
    if (found.error) return `${tool} is not installed`;
  }
  return undefined;
}

export function render(overlay) {
  const result = spawnSync("kubectl", ["kustomize", overlay], { encoding: "utf8", maxBuffer: 64 << 20 });
  if (result.status !== 0) throw new Error(`kubectl kustomize ${overlay} failed: ${result.stderr}`);
  return parseAllDocuments(result.stdout).map((doc) => doc.toJSON());
}

/** The NATS servers' CA, written where a client of the run reads it, with the name their certificate carries. */
function natsCa(objects, dir) {
  const secret = objects.get("Secret", "bancada-nats-tls");
  if (!secret) return null;
  const caFile = path.join(dir, "nats-ca.crt");
  writeFileSync(caFile, dataOf(secret)["ca.crt"]);
  return { caFile, serverName: "nats-0.nats-headless" };
}

/**
 * The Secrets an operator makes once and the overlay does not hold, made for the run as the operator would: the
 * NATS servers' TLS (`bancada secrets nats-tls`: a CA and the servers' certificate, by openssl).
 */
export function withGeneratedSecrets(docs) {
  const referenced = JSON.stringify(docs).includes('"bancada-nats-tls"');
  const present = docs.some((doc) => doc?.kind === "Secret" && doc.metadata?.name === "bancada-nats-tls");
  if (!referenced || present) return docs;
  const namespace = docs.find((doc) => doc?.kind === "StatefulSet")?.metadata?.namespace ?? "bancada";
  const cli = fileURLToPath(new URL("../../cli/bin/bancada.mjs", import.meta.url));
  const made = spawnSync(process.execPath, [cli, "secrets", "nats-tls", "--namespace", namespace], { encoding: "utf8" });
  if (made.status !== 0) throw new Error(`bancada secrets nats-tls failed: ${made.stderr}`);
  return [...docs, ...parseAllDocuments(made.stdout).map((doc) => doc.toJSON())];
}

function matches(selector, labels) {
  return Object.entries(selector ?? {}).every(([key, value]) => labels?.[key] === value);
}

/** The Kubernetes node every pod of the rehearsal runs on (`spec.nodeName`). */
const rehearsalNode = "rehearsal-node";

/** Every pod to run: [{ name, workload, n, kind, spec, labels, nodeName }], NATS first. */
export function podsOf(objects) {
  const pods = [];
  for (const kind of ["StatefulSet", "Deployment", "DaemonSet"]) {
    for (const workload of objects.all(kind)) {
      const hpa = objects.all("HorizontalPodAutoscaler").find((h) => h.spec.scaleTargetRef.name === workload.metadata.name);
      // a DaemonSet: one pod, the rehearsal's machine being its one node
      const replicas = kind === "DaemonSet" ? 1 : Math.max(workload.spec.replicas ?? 1, hpa?.spec.minReplicas ?? 0);
      for (let i = 0; i < replicas; i++) {
        pods.push({
          name: `${workload.metadata.name}-${i}`,
          workload: workload.metadata.name,
          namespace: workload.metadata.namespace ?? "default",
          n: i + 1,
          kind,
          serviceName: workload.spec.serviceName,
          claimTemplates: workload.spec.volumeClaimTemplates ?? [],
          nodeName: rehearsalNode,
          spec: workload.spec.template.spec,
          labels: workload.spec.template.metadata?.labels ?? {},
        });
      }
    }
  }
  return pods;
}

function imageFor(image, images) {
  if (images[image]) return images[image];
  for (const [from, to] of Object.entries(images)) if (from.endsWith("*") && image.startsWith(from.slice(0, -1))) return to;
  return image;
}

async function probeOnce(probe, container) {
  if (probe.kind === "http") {
    try {
      const response = await fetch(probe.url, { signal: AbortSignal.timeout(Math.max(probe.timeoutMs, 1000)) });
      await response.arrayBuffer();
      return response.status >= 200 && response.status < 400;
    } catch {
      return false;
    }
  }
  if (probe.kind === "tcp") {
    return new Promise((resolve) => {
      const socket = connect({ host: probe.host, port: probe.port, timeout: probe.timeoutMs });
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
      socket.once("timeout", () => (socket.destroy(), resolve(false)));
    });
  }
  return podman(["exec", container, ...probe.command], { allowFailure: true, timeoutMs: probe.timeoutMs + 5000 }).status === 0;
}

function stateOf(container) {
  const result = podman(["inspect", "--format", "{{.State.Status}} {{.State.ExitCode}} {{.State.Pid}}", container], { allowFailure: true });
  const [status, code, pid] = result.stdout.trim().split(" ");
  return { status, code: Number(code), pid: Number(pid) };
}

function logsOf(container, lines = 40) {
  const result = podman(["logs", "--tail", String(lines), container], { allowFailure: true });
  return `${result.stdout}${result.stderr}`;
}

/**
 * Polls the startup probe, then the readiness probe, as the kubelet does (a startup probe gets
 * failureThreshold × period; polled more often here, so readiness is seen sooner). Fails when the container exits.
 */
async function waitReady(entry, pollMs) {
  const { container, startup, readiness } = entry;
  for (const probe of [startup, readiness]) {
    if (!probe) continue;
    const budget = probe === startup ? probe.failureThreshold * probe.periodMs + probe.initialDelayMs : entry.readyBudgetMs;
    const until = Date.now() + budget;
    await sleep(probe.initialDelayMs);
    for (;;) {
      if (await probeOnce(probe, container)) break;
      const state = stateOf(container);
      if (state.status !== "running") throw new Error(`${container} is ${state.status} (exit ${state.code}):\n${logsOf(container)}`);
      if (Date.now() > until)
        throw new Error(
          `${container}: its ${probe === startup ? "startup" : "readiness"} probe failed for ${budget / 1000} s:\n${logsOf(container)}`,
        );
      await sleep(Math.min(pollMs, probe.periodMs));
    }
  }
}

/** Runs `podman run` with the values in podman's own environment (no secret on a command line). */
function runContainer({ args, env }, { detach, timeoutMs = 300_000 }) {
  return new Promise((resolve) => {
    const child = spawn("podman", ["run", ...(detach ? ["-d"] : []), ...args], { env: podmanEnv({ PATH: process.env.PATH, ...env }) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.once("exit", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function prepareVolumes(pod, objects, { dir, user }) {
  const mounts = {};
  const volumes = [...(pod.spec.volumes ?? [])];
  for (const template of pod.claimTemplates) volumes.push({ name: template.metadata.name, claimTemplate: true });
  const [uid, gid] = (user ?? "0:0").split(":").map(Number);
  const group = pod.spec.securityContext?.fsGroup ?? gid ?? uid;
  for (const volume of volumes) {
    if (volume.configMap || volume.secret) {
      const folder = path.join(dir, "volumes", pod.name, volume.name);
      mkdirSync(folder, { recursive: true });
      for (const file of volumeFiles(volume, objects)) {
        const target = path.join(folder, file.path);
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, file.content, { mode: file.mode });
        chmodSync(target, file.mode);
        if (pod.spec.securityContext?.fsGroup !== undefined) chownSync(target, 0, group);
      }
      mounts[volume.name] = { type: "bind", source: folder, readOnly: true };
    } else if (volume.emptyDir) {
      mounts[volume.name] = { type: "tmpfs", size: volume.emptyDir.sizeLimit ? quantity(volume.emptyDir.sizeLimit) : undefined };
    } else if (volume.hostPath) {
      // the machine's folder: one per rehearsal, as if the run were the only node
      const folder = path.join(dir, "hosts", pod.nodeName ?? "node", volume.hostPath.path.replace(/^\/+/, "").replaceAll("/", "_"));
      mkdirSync(folder, { recursive: true });
      mounts[volume.name] = { type: "bind", source: folder };
    } else if (volume.persistentVolumeClaim || volume.claimTemplate) {
      const claim = volume.claimTemplate ? `${volume.name}-${pod.name}` : volume.persistentVolumeClaim.claimName;
      const folder = path.join(dir, "claims", claim);
      mkdirSync(folder, { recursive: true });
      chownSync(folder, uid || 0, group || 0);
      mounts[volume.name] = { type: "bind", source: folder };
    } else throw new Error(`pod ${pod.name}: volume ${volume.name} of an unsupported kind`);
  }
  return mounts;
}

/** DATABASE_URL as the containers reach it: a server on the host's loopback through a forwarder (socat). */
async function forwardPostgres(databaseUrl, hostIp, dir) {
  const url = new URL(databaseUrl);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) return { url: databaseUrl };
  const port = Number(url.port || 5432);
  const child = spawn("socat", [`TCP-LISTEN:${port},bind=${hostIp},fork,reuseaddr`, `TCP:127.0.0.1:${port}`], {
    detached: true,
    stdio: "ignore",
  });
  child.unref();
  writeFileSync(path.join(dir, "postgres-forwarder.pid"), String(child.pid));
  for (let i = 0; ; i++) {
    if (await probeOnce({ kind: "tcp", host: hostIp, port, timeoutMs: 1000 })) break;
    if (i === 50) throw new Error(`the PostgreSQL forwarder (socat) does not listen on ${hostIp}:${port}`);
    await sleep(100);
  }
  url.hostname = hostIp;
  return { url: url.toString(), pid: child.pid };
}

export async function up(options) {
  const dir = path.resolve(options.dir);
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const id = options.id ?? randomBytes(3).toString("hex");
  const label = `bancada.rehearsal=${id}`;
  const objects = indexObjects(withGeneratedSecrets(render(options.overlay)));
  const base = options.build ? buildImages().base : ensureBase({ log: say }).runtime;
  const images = { "nats:*": natsImage(base).name, ...options.images };

  const network = `bancada-rehearsal-${id}`;
  podman(["network", "create", "--label", label, network]);
  const state = { id, network, dir, containers: [], forwarderPid: undefined };
  const inflight = new Set();
  writeFileSync(path.join(dir, "cluster.json"), `${JSON.stringify({ id, network, containers: [] }, null, 2)}\n`);
  try {
    const [subnet] = JSON.parse(podman(["network", "inspect", network]).stdout)[0].subnets;
    const prefix = subnet.subnet.split(".").slice(0, 3).join(".");
    const hostIp = subnet.gateway;
    const pods = podsOf(objects);
    pods.forEach((pod, i) => (pod.ip = `${prefix}.${10 + i}`));
    // names: each Service → its first pod; each StatefulSet pod → <pod>.<serviceName>; with the namespace forms
    const hosts = [];
    const withNamespace = (name, ns) => [name, `${name}.${ns}`, `${name}.${ns}.svc`, `${name}.${ns}.svc.cluster.local`];
    for (const service of objects.all("Service")) {
      const target = pods.find((pod) => matches(service.spec.selector, pod.labels) && Object.keys(service.spec.selector ?? {}).length);
      if (target) for (const name of withNamespace(service.metadata.name, target.namespace)) hosts.push([name, target.ip]);
    }
    for (const pod of pods.filter((p) => p.serviceName))
      for (const name of withNamespace(`${pod.name}.${pod.serviceName}`, pod.namespace)) hosts.push([name, pod.ip]);

    // the forwarder binds the host's address in the network, which exists once a container is on it: after NATS
    const database = { url: undefined };
    const gatewayIps = pods.filter((pod) => pod.workload === "gateway").map((pod) => pod.ip);
    const config = objects.get("ConfigMap", "bancada-config")?.data ?? {};
    const allowed = [...(config.BANCADA_ALLOWED_HOSTS ?? "").split(",").filter(Boolean), ...gatewayIps].join(",");
    const cores = cpus().length;

    // what every pod gets from the rehearsal; Bancada's containers also the database and the overrides
    const prepare = (pod) => {
      const main = pod.spec.containers;
      const containers = [...(pod.spec.initContainers ?? []).map((c) => ({ c, init: true })), ...main.map((c) => ({ c, init: false }))];
      const user = userOf(main[0], pod.spec);
      const mounts = prepareVolumes(pod, objects, { dir, user });
      return containers.map(({ c, init }) => {
        const image = imageFor(c.image, images);
        const bancada = image.includes("/bancada/");
        const name = `${id}-${pod.name}${init ? `-${c.name}` : ""}`;
        const podInfo = {
          name: pod.name,
          namespace: pod.namespace,
          ip: pod.ip,
          hostIp,
          nodeName: pod.nodeName,
          network,
          hosts,
          labels: { "bancada.rehearsal": id },
          cores,
        };
        const extraEnv = bancada ? { DATABASE_URL: database.url, BANCADA_ALLOWED_HOSTS: allowed, ...options.env } : {};
        const runWith = (changes = {}) =>
          runArgs({ ...c, ...changes.container }, pod.spec, {
            objects,
            pod: changes.name ? { ...podInfo, ip: undefined } : podInfo,
            mounts,
            image,
            name: changes.name ?? name,
            env: extraEnv,
          });
        const run = runWith();
        return {
          runWith,
          pod,
          init,
          container: name,
          image,
          run,
          startup: probeOf(c.startupProbe, c, pod.ip),
          readiness: probeOf(c.readinessProbe, c, pod.ip),
          readyBudgetMs: options.readyTimeoutMs,
        };
      });
    };
    const missing = [
      ...new Set(pods.flatMap((pod) => [...(pod.spec.initContainers ?? []), ...pod.spec.containers].map((c) => imageFor(c.image, images)))),
    ].filter((image) => podman(["image", "exists", image], { allowFailure: true }).status !== 0);
    if (missing.length) throw new Error(`images missing from podman: ${missing.join(", ")}. Build them with: node infra/images/build.mjs`);

    const startPod = async (entries) => {
      for (const entry of entries) {
        const starting = runContainer(entry.run, { detach: !entry.init });
        inflight.add(starting);
        const result = await starting;
        state.containers.push(entry.container);
        if (result.status !== 0)
          throw new Error(`${entry.container} failed to start (${result.status}): ${result.stderr}${logsOf(entry.container)}`);
        if (entry.init) {
          say(`${entry.container}: done`);
          podman(["rm", entry.container], { allowFailure: true });
          state.containers.pop();
        }
      }
      const mains = entries.filter((entry) => !entry.init);
      await Promise.all(mains.map((entry) => waitReady(entry, options.pollMs)));
      return mains;
    };
    const isNats = (pod) => pod.spec.containers.some((c) => c.image.startsWith("nats"));
    // NATS first (every other pod's bus), then the rest at once, as a scheduler would start them
    const natsPods = pods.filter((pod) => isNats(pod)).map((pod) => ({ pod, entries: prepare(pod) }));
    const natsEntries = (await Promise.all(natsPods.map(({ entries }) => startPod(entries)))).flat();
    say(`NATS: ${natsEntries.length} servers ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    Object.assign(database, await forwardPostgres(options.databaseUrl, hostIp, dir));
    state.forwarderPid = database.pid;

    // the others once DATABASE_URL is known
    const others = pods.filter((pod) => !isNats(pod)).map((pod) => ({ pod, entries: prepare(pod) }));
    const gatewayPod = others.find(({ pod }) => pod.workload === "gateway");
    const key = gatewayKey(gatewayPod.entries.find((entry) => !entry.init));
    const [apiKey, ...ready] = await Promise.all([key, ...others.map(({ entries }) => startPod(entries))]);
    const readyAt = Date.now();
    say(`every pod ready after ${((readyAt - started) / 1000).toFixed(1)} s`);

    const portOf = (entry, name) => entry.pod.spec.containers[0].ports?.find((p) => p.name === name)?.containerPort;
    const mains = ready.flat();
    const cluster = {
      id,
      network,
      hostIp,
      forwarderPid: state.forwarderPid,
      readyMs: readyAt - started,
      gateways: mains.filter((e) => e.pod.workload === "gateway").map((e) => `http://${e.pod.ip}:${portOf(e, "http")}/mcp`),
      nats: natsEntries.map((e) => ({
        url: `nats://${e.pod.ip}:${portOf(e, "client")}`,
        monitor: `http://${e.pod.ip}:${portOf(e, "monitor")}`,
        pid: stateOf(e.container).pid,
        container: e.container,
        log: `podman logs ${e.container}`,
      })),
      processes: mains.map((e) => ({
        component: e.pod.workload,
        n: e.pod.n,
        pid: stateOf(e.container).pid,
        url: `http://${e.pod.ip}:${portOf(e, "http")}`,
        container: e.container,
        log: `podman logs ${e.container}`,
        env: { NATS_USER: e.run.env.NATS_USER, NATS_PASSWORD: e.run.env.NATS_PASSWORD },
      })),
      containers: state.containers,
      apiKey,
      auth: true,
      tls: natsCa(objects, dir),
      root: config.BANCADA_SUBJECT_ROOT ?? "bancada",
    };
    writeFileSync(path.join(dir, "cluster.json"), `${JSON.stringify(cluster, null, 2)}\n`, { mode: 0o600 });
    say(`gateways: ${cluster.gateways.join(" ")}`);
    say(`stop with: node infra/local/images.mjs down --dir ${options.dir}`);
    return cluster;
  } catch (error) {
    say(`failed: ${error.message}`);
    // the containers still being started when one failed, then every container of this rehearsal
    await Promise.allSettled([...inflight]);
    await down({ dir, graceMs: 0 }).catch(() => {});
    throw error;
  }
}

/** An API key, made as the gateway's pod would (its image, its environment): `bancada keys create`. */
async function gatewayKey(gateway) {
  const command = [
    "node",
    "cli/bin/bancada.mjs",
    "keys",
    "create",
    "--account",
    "rehearsal",
    "--person",
    "operator",
    "--agent",
    "rehearsal",
  ];
  const run = gateway.runWith({
    name: `${gateway.container}-keys`,
    container: { command: [...command, "--scopes", "all", "--allow-writes", "--json"], args: [], ports: [] },
  });
  const result = await new Promise((resolve) => {
    const child = spawn("podman", ["run", "--rm", ...run.args], { env: podmanEnv({ PATH: process.env.PATH, ...run.env }) });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.once("exit", (code) => resolve({ code, out, err }));
  });
  if (result.code !== 0) throw new Error(`bancada keys create (gateway image) failed:\n${result.err}${result.out}`);
  return JSON.parse(result.out.trim().split("\n").pop()).key;
}

export async function down(options) {
  const dir = path.resolve(options.dir);
  const file = path.join(dir, "cluster.json");
  if (!existsSync(file)) throw new Error(`${file} does not exist: nothing to stop.`);
  const { id, network } = JSON.parse(readFileSync(file, "utf8"));
  const names = podman(["ps", "-a", "--filter", `label=bancada.rehearsal=${id}`, "--format", "{{.Names}}"])
    .stdout.split("\n")
    .filter(Boolean);
  if (names.length)
    podman(["rm", "-f", "-t", String(Math.round(options.graceMs / 1000)), ...names], { timeoutMs: options.graceMs + 60_000 });
  say(`${names.length} containers removed`);
  const pidFile = path.join(dir, "postgres-forwarder.pid");
  if (existsSync(pidFile)) {
    try {
      process.kill(Number(readFileSync(pidFile, "utf8")), "SIGTERM");
    } catch {
      // already gone
    }
  }
  if (network) podman(["network", "rm", "-f", network], { allowFailure: true });
}

async function main(argv) {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      dir: { type: "string" },
      overlay: { type: "string", default: path.join(repo, "infra/k8s/overlays/dev") },
      env: { type: "string", multiple: true, default: [] },
      image: { type: "string", multiple: true, default: [] },
      build: { type: "boolean", default: false },
      grace: { type: "string", default: "10" },
      "ready-timeout": { type: "string", default: "180" },
    },
  });
  if (!values.dir || !["up", "down"].includes(command)) {
    process.stderr.write("Usage: node infra/local/images.mjs up|down --dir <folder> [--build] [--env K=V] [--image from=to]\n");
    process.exit(2);
  }
  if (command === "down") return down({ dir: values.dir, graceMs: Number(values.grace) * 1000 });
  const missing = podmanMissing();
  if (missing) throw new Error(missing);
  if (!process.env.DATABASE_URL) throw new Error("set DATABASE_URL: the dev overlay's PostgreSQL is a server outside the cluster");
  const pairs = (list) => Object.fromEntries(list.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
  await up({
    dir: values.dir,
    overlay: values.overlay,
    databaseUrl: process.env.DATABASE_URL,
    env: pairs(values.env),
    images: pairs(values.image),
    build: values.build,
    pollMs: 500,
    readyTimeoutMs: Number(values["ready-timeout"]) * 1000,
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`images: ${error.message}\n`);
      process.exit(1);
    },
  );
}
