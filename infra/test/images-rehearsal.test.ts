/**
 * The rehearsal from the images (infra/local/images.mjs): every pod of the dev overlay as podman containers, with
 * the manifests' own images, commands, environment, probes and security contexts. The images are checked as the
 * manifests run them (uid, read-only root, /tmp, capabilities), the kill test of infra/test/rehearsal.test.ts runs
 * against the containers (SIGKILL to a scripts replica's, a gateway's and a NATS server's main process), and the
 * boxes container makes a box and runs a command in it (bubblewrap inside the container, as on a cluster).
 *
 * Runs where podman (rootful), kubectl and socat are installed and the images are built
 * (`node infra/images/build.mjs`, which .ci/run does); elsewhere it says it is skipped and why.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect } from "@nats-io/transport-node";
import { errors } from "@nats-io/nats-core";
import { freshDatabase, type TestDatabase } from "@bancada/testkit";
import { Caller, call, listTagged, readCluster, repo, writeUnderLoad, type ClusterFile, type WriteLog } from "../local/load.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const retryable = new Set(["unavailable", "deadline_exceeded", "transport"]);
const components = ["gateway", "scripts", "boards", "docs", "drafts", "boxes"];
const podmanEnv = { ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? path.join(repo, "infra/images/containers.conf") };

function podman(args: string[]) {
  return spawnSync("podman", args, { encoding: "utf8", env: podmanEnv, timeout: 60_000 });
}

/** Why this file cannot run here, or undefined. */
function unavailable(): string | undefined {
  const version = podman(["--version"]);
  if (version.error) return "podman is not installed (apt-get install podman runc; .ci/run installs it)";
  if (process.getuid?.() !== 0) return "the boxes pod is privileged: the rehearsal from the images needs rootful podman (root)";
  if (spawnSync("kubectl", ["version", "--client"]).error) return "kubectl is not installed";
  if (spawnSync("socat", ["-V"]).error) return "socat is not installed";
  const absent = components.filter((c) => podman(["image", "exists", `registry.example.com/bancada/${c}:dev`]).status !== 0);
  if (absent.length) return `the images are not built (${absent.join(", ")}): node infra/images/build.mjs`;
  return undefined;
}
const missing = unavailable();
if (missing) console.warn(`infra/test/images-rehearsal.test.ts skipped: ${missing}`);

interface ImagesCluster extends ClusterFile {
  processes: (ClusterFile["processes"][number] & { container: string })[];
  nats: (ClusterFile["nats"][number] & { container: string })[];
  readyMs: number;
}

function runImages(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repo, "infra/local/images.mjs"), ...args], { cwd: repo, env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`images.mjs ${args[0]} exited with ${code}:\n${output}`));
    });
  });
}

let dir: string;
let database: TestDatabase;
let cluster: ImagesCluster;

describe.skipIf(missing !== undefined)("the rehearsal from the images", () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "bancada-images-"));
    database = await freshDatabase("bancada_images");
    const env = { ...process.env, DATABASE_URL: database.url };
    const output = await runImages(
      ["up", "--dir", dir, "--env", "BANCADA_RATE_PER_SEC=1000000", "--env", "BANCADA_RATE_BURST=1000000"],
      env,
      // 86 s on the idle machine; over 280 s in the full test run, its containers sharing two cores with another file
      540_000,
    );
    console.log(
      output
        .split("\n")
        .filter((line) => /ready|NATS/.test(line))
        .join("\n"),
    );
    cluster = readCluster(dir) as ImagesCluster;
  }, 600_000);

  afterAll(async () => {
    if (dir)
      await runImages(["down", "--dir", dir, "--grace", "5"], process.env, 120_000).catch((error: Error) => console.error(error.message));
    await database?.drop().catch(() => {});
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 150_000);

  const main = (component: string, n: number) => cluster.processes.find((p) => p.component === component && p.n === n)!;

  it("runs every component as the manifests do: uid 10001, a read-only root, /tmp a tmpfs, no capability (the boxes node agent: root, privileged)", () => {
    for (const component of ["gateway", "scripts", "boards", "docs", "drafts", "boxes"]) {
      const { container } = main(component, 1);
      const status = podman(["exec", container, "cat", "/proc/1/status"]).stdout;
      expect(status, component).toMatch(/^Uid:\s+10001\s+10001\s+10001\s+10001$/m);
      for (const set of ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"])
        expect(status, `${component} ${set}`).toMatch(new RegExp(`^${set}:\\s+0+$`, "m"));
      expect(status, component).toMatch(/^NoNewPrivs:\s+1$/m);
      expect(podman(["exec", container, "touch", "/app/written"]).status, `${component}: root filesystem read-only`).not.toBe(0);
      expect(podman(["exec", container, "touch", "/tmp/written"]).status, `${component}: /tmp writable`).toBe(0);
      expect(podman(["exec", container, "sh", "-c", "grep ' /tmp ' /proc/mounts"]).stdout).toMatch(/^tmpfs \/tmp tmpfs /);
    }
    const boxes = podman(["exec", main("boxes-node", 1).container, "cat", "/proc/1/status"]).stdout;
    expect(boxes).toMatch(/^Uid:\s+0\s+0\s+0\s+0$/m);
    expect(
      podman([
        "inspect",
        "--format",
        "{{.HostConfig.Privileged}} {{.HostConfig.ReadonlyRootfs}}",
        main("boxes-node", 1).container,
      ]).stdout.trim(),
    ).toBe("true true");
  });

  it("keeps every image within its size (250 MB; boxes, with the sandbox tools, 275 MB)", () => {
    for (const component of components) {
      const bytes = Number(
        podman(["image", "inspect", "--format", "{{.Size}}", `registry.example.com/bancada/${component}:dev`]).stdout.trim(),
      );
      expect(bytes, component).toBeGreaterThan(0);
      expect(bytes / 1e6, `${component}: ${Math.round(bytes / 1e6)} MB`).toBeLessThanOrEqual(component === "boxes" ? 275 : 250);
    }
  });

  it("runs the manifests' topology: 3 NATS servers, 2 gateways, every service's replicas (boxes: 2 control-plane replicas and this machine's node agent), each ready by its own probes", () => {
    expect(cluster.nats).toHaveLength(3);
    expect(cluster.gateways).toHaveLength(2);
    expect(cluster.processes.filter((p) => p.component === "boxes-node")).toHaveLength(1);
    for (const component of ["scripts", "boards", "docs", "boxes"])
      expect(
        cluster.processes.filter((p) => p.component === component),
        component,
      ).toHaveLength(2);
    console.log(`images: every pod ready ${cluster.readyMs} ms after up started`);
  });

  it("makes a box through the control plane on the node agent's node and runs a command in it, entered by the helper built with the image (its seccomp filter on)", async () => {
    const caller = new Caller(cluster.gateways, cluster.apiKey, 0);
    try {
      const client = await caller.client();
      const created = await call(client, "create_box", { name: "from-the-image" }, { timeoutMs: 120_000 });
      expect(created.kind, JSON.stringify(created)).toBe("ok");
      const box = (created as unknown as { data: { box: { id: string; state: string } } }).data.box;
      expect(box.state, JSON.stringify(box)).toBe("running");
      expect((box as { node?: string }).node).toBe("rehearsal-node");
      const ran = await call(client, "exec", { boxId: box.id, cmd: "id -u; grep '^Seccomp:' /proc/self/status; hostname" });
      expect(ran.kind, JSON.stringify(ran)).toBe("ok");
      const { stdout, exitCode } = (ran as unknown as { data: { stdout: string; exitCode: number } }).data;
      expect(exitCode).toBe(0);
      expect(stdout.split("\n")[0]).toBe("0");
      // 2: a seccomp filter holds the entered command (the chain of programs, without the helper, leaves it at 0)
      expect(stdout.split("\n")[1]).toMatch(/^Seccomp:\s+2$/);
      const deleted = await call(client, "delete_box", { boxId: box.id, confirm: true }, { timeoutMs: 60_000 });
      expect(deleted.kind, JSON.stringify(deleted)).toBe("ok");
    } finally {
      await caller.close();
    }
  }, 180_000);

  it("writes through both gateways lose nothing acknowledged and duplicate nothing while a scripts replica, a gateway and a NATS server are killed", async () => {
    const tag = `images-${Date.now().toString(36)}`;
    const start = Date.now();
    let stopping = false;
    const kills: { what: string; at: number }[] = [];
    const log: WriteLog = { acknowledged: new Map(), attempts: [], abandoned: [] };
    const writing = writeUnderLoad({ gateways: cluster.gateways, apiKey: cluster.apiKey, workers: 4, tag, stop: () => stopping, log });
    const probes: { at: number; ms: number; ok: boolean }[] = [];
    const probing = Promise.all(
      [0, 1, 2, 3].map(async (index) => {
        const prober = new Caller(cluster.gateways, cluster.apiKey, index);
        try {
          while (!stopping) {
            const at = Date.now();
            const outcome = await prober.call("list_scripts", { limit: 1 }, 3_000);
            probes.push({ at, ms: Date.now() - at, ok: outcome.kind === "ok" });
            await sleep(100);
          }
        } finally {
          await prober.close();
        }
      }),
    );
    // kill -9 of the container's main process (node, or nats-server), as the OOM killer or a node's loss does
    const kill = (what: string, pid: number) => {
      process.kill(pid, "SIGKILL");
      kills.push({ what, at: Date.now() });
    };
    await sleep(3_000);
    kill("scripts-1", main("scripts", 1).pid);
    await sleep(1_000);
    kill("gateway-1", main("gateway", 1).pid);
    await sleep(1_000);
    kill("nats-2", cluster.nats[2]!.pid);
    await sleep(7_000);
    stopping = true;
    await Promise.all([writing, probing]);

    const failures = log.attempts.filter((attempt) => attempt.outcome !== "ok");
    const byCode: Record<string, number> = {};
    for (const failure of failures) byCode[failure.code ?? "?"] = (byCode[failure.code ?? "?"] ?? 0) + 1;
    const recovery = kills.map(({ what, at }) => {
      const ends = probes.filter((probe) => probe.ok && probe.at >= at).map((probe) => probe.at + probe.ms - at);
      return { what, ms: ends.length ? Math.min(...ends) : Infinity };
    });
    console.log(
      `images rehearsal: ${log.acknowledged.size} acknowledged creates, ${log.attempts.length} attempts, ` +
        `failures ${JSON.stringify(byCode)}, first success after each kill ${JSON.stringify(recovery)}, writing took ${Date.now() - start} ms`,
    );
    expect(log.acknowledged.size).toBeGreaterThan(50);
    expect(log.abandoned).toEqual([]);
    for (const failure of failures) expect(retryable.has(failure.code ?? ""), `${failure.code}: ${failure.message}`).toBe(true);
    for (const failure of failures) expect(failure.at + failure.ms).toBeGreaterThanOrEqual(kills[0]!.at);
    for (const failure of failures.filter((f) => f.code === "transport")) expect(failure.gateway).toBe(cluster.gateways[0]);
    for (const { what, ms } of recovery) expect(ms, `first success after killing ${what}`).toBeLessThan(3_000);

    const reader = new Caller([cluster.gateways[1]!], cluster.apiKey, 0);
    try {
      const client = await reader.client();
      const listed = await listTagged(client, tag);
      const perKey = new Map<string, number>();
      for (const item of listed) {
        const key = item.title.slice(tag.length + 1);
        perKey.set(key, (perKey.get(key) ?? 0) + 1);
      }
      expect([...perKey].filter(([, count]) => count > 1)).toEqual([]);
      expect([...log.acknowledged.keys()].filter((key) => !perKey.has(key))).toEqual([]);
      expect(perKey.size).toBe(log.acknowledged.size);
      const ids = [...log.acknowledged.values()];
      const unreadable: string[] = [];
      for (let i = 0; i < ids.length; i += 16) {
        const outcomes = await Promise.all(ids.slice(i, i + 16).map((id) => call(client, "get_script", { id })));
        outcomes.forEach((outcome, j) => outcome.kind !== "ok" && unreadable.push(`${ids[i + j]}: ${JSON.stringify(outcome)}`));
      }
      expect(unreadable).toEqual([]);
    } finally {
      await reader.close();
    }
  }, 120_000);

  it("refuses the scripts service's NATS user a publish to the boards service's calls", async () => {
    const scripts = main("scripts", 2);
    // the servers' certificate names them (nats-0.nats-headless…), the test reaches them by address
    const tls = cluster.tls ? ({ caFile: cluster.tls.caFile, servername: cluster.tls.serverName } as { caFile: string }) : undefined;
    const connection = await connect({
      servers: cluster.nats[0]!.url,
      user: scripts.env.NATS_USER,
      pass: scripts.env.NATS_PASSWORD,
      ...(tls ? { tls } : {}),
    });
    try {
      const violation = (async () => {
        for await (const status of connection.status()) {
          if (status.type === "error" && status.error instanceof errors.PermissionViolationError) return status.error;
        }
        return undefined;
      })();
      connection.publish(`${cluster.root}.boards.call`, new TextEncoder().encode("{}"));
      await connection.flush();
      const error = await Promise.race([violation, sleep(5_000).then(() => undefined)]);
      expect(error?.operation).toBe("publish");
      expect(error?.subject).toBe(`${cluster.root}.boards.call`);
    } finally {
      await connection.close();
    }
  });
});
