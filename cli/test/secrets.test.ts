/**
 * `bancada secrets create`: every secret of the production shape in one step, as an env file or as the Secrets
 * infra/k8s references; a start lacking several of them names them all at once; and a fresh production-shape start
 * (DATABASE_URL, a new data folder) leaves the data folder crossable, so create_box works.
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parseAllDocuments } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BusKeys } from "@bancada/service-kit";
import { callTool, connectClient, freshDatabase, type TestDatabase } from "@bancada/testkit";
import { loadEnv } from "../src/env.js";
import { serviceNames } from "../src/services.js";
import { bin, startBancada } from "./start-bancada.js";

const run = promisify(execFile);
const repoRoot = path.join(import.meta.dirname, "../..");
const components = ["gateway", ...serviceNames];

/** The variables of an env file (comments and blank lines skipped). */
function parseEnvFile(text: string): Record<string, string> {
  const entries = text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)] as const);
  return Object.fromEntries(entries);
}

/** What the command said on stderr, less the note that it runs from the sources (a stale cli/dist). */
const said = (stderr: string): string =>
  stderr
    .split("\n")
    .filter((line) => line && !line.includes("cli/dist"))
    .join("\n");

/** Why the render test cannot run here, or undefined when kubectl renders kustomizations. */
function kubectlMissing(): string | undefined {
  const probe = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8" });
  if (probe.error) return `kubectl is not installed (${probe.error.message}); .ci/run installs it`;
  return probe.status === 0 ? undefined : `kubectl version --client failed: ${probe.stderr.trim()}`;
}
const noKubectl = kubectlMissing();
if (noKubectl) console.warn(`secrets.test.ts: the prod overlay test is skipped: ${noKubectl}`);
const noBwrap = existsSync("/usr/bin/bwrap") ? undefined : "/usr/bin/bwrap is missing (boxes need bubblewrap)";
if (noBwrap) console.warn(`secrets.test.ts: the create_box test is skipped: ${noBwrap}`);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Manifest = Record<string, any>;

describe("bancada secrets create", { timeout: 240_000 }, () => {
  const { NATS_URL: _nats, DATABASE_URL: _database, ...baseEnv } = process.env;
  const bancada = (args: string[], env: NodeJS.ProcessEnv = baseEnv) => run(process.execPath, [bin, ...args], { env, timeout: 120_000 });

  it("when run without a format, then it prints an env file of every production secret, fresh each time, which the configuration accepts", async () => {
    const first = parseEnvFile((await bancada(["secrets", "create"])).stdout);
    const natsPasswords = components.map((component) => `BANCADA_NATS_${component.toUpperCase()}_PASSWORD`);
    expect(Object.keys(first).sort()).toEqual(
      ["BANCADA_KEY_PEPPER", "BANCADA_BUS_SIGNING_KEY", "BANCADA_BUS_VERIFY_KEY", "BOXES_SECRETS_KEY", ...natsPasswords].sort(),
    );
    // each service's key is the one the master derives, so the gateway's calls check on every service
    const gateway = BusKeys.from({ signingKey: first.BANCADA_BUS_SIGNING_KEY });
    const services = BusKeys.from({ verifyKey: first.BANCADA_BUS_VERIFY_KEY });
    expect(services.holdsMaster).toBe(false);
    expect([...services.scopes].sort()).toEqual([...serviceNames].sort());
    for (const service of serviceNames) expect(services.for(service).export()).toBe(gateway.for(service).export());
    expect(Buffer.from(first.BOXES_SECRETS_KEY!, "base64")).toHaveLength(32);
    for (const name of natsPasswords) expect(first[name]!.length, name).toBeGreaterThanOrEqual(24);
    // what the start reads validates (the pepper's length, the secrets key's 32 bytes, the bus keys of one master)
    expect(() => loadEnv({ ...first, DATABASE_URL: "postgres://bancada@db/bancada", NODE_ENV: "production" })).not.toThrow();
    const second = parseEnvFile((await bancada(["secrets", "create", "--format", "env"])).stdout);
    for (const [name, value] of Object.entries(first)) expect(second[name], name).not.toBe(value);
  });

  it("when the format is neither env nor kubernetes, then a one-line reason and usage, exit 1, no stack", async () => {
    const failed = (await bancada(["secrets", "create", "--format", "yaml"]).catch((error: unknown) => error)) as {
      code: number;
      stderr: string;
    };
    expect(failed.code).toBe(1);
    expect(said(failed.stderr)).toMatch(/^--format takes env or kubernetes, not 'yaml'\.\nUsage:/);
    expect(failed.stderr).not.toMatch(/\n\s+at /);
  });

  it.skipIf(noKubectl !== undefined)(
    "when the Kubernetes format is applied to the rendered prod overlay, then every secretKeyRef and secretRef is satisfied, and nothing else is made",
    async () => {
      const made = parseAllDocuments((await bancada(["secrets", "create", "--format", "kubernetes"])).stdout)
        .map((document) => document.toJS() as Manifest)
        .filter(Boolean);
      for (const secret of made) {
        expect(secret).toMatchObject({ apiVersion: "v1", kind: "Secret", type: "Opaque", metadata: { namespace: "bancada" } });
        for (const [key, value] of Object.entries(secret.stringData as Record<string, unknown>)) {
          expect(typeof value, `${secret.metadata.name} ${key}`).toBe("string");
          expect(String(value).length, `${secret.metadata.name} ${key}`).toBeGreaterThanOrEqual(24);
        }
      }
      const rendered = spawnSync("kubectl", ["kustomize", path.join(repoRoot, "infra/k8s/overlays/prod")], {
        encoding: "utf8",
        maxBuffer: 64 << 20,
      });
      expect(rendered.status, rendered.stderr).toBe(0);
      const objects = parseAllDocuments(rendered.stdout)
        .map((document) => document.toJS() as Manifest)
        .filter(Boolean);
      // the PostgreSQL operator writes bancada-pg-app itself (infra/k8s/overlays/prod/postgres.yaml)
      const operatorMade = new Set(["bancada-pg-app"]);
      const wanted = new Map<string, Set<string>>();
      const want = (name: string, key: string) => void wanted.set(name, (wanted.get(name) ?? new Set()).add(key));
      for (const object of objects.filter((item) => item.spec?.template?.spec)) {
        const podSpec = object.spec.template.spec;
        for (const container of [...(podSpec.initContainers ?? []), ...podSpec.containers]) {
          for (const variable of container.env ?? []) {
            const ref = variable.valueFrom?.secretKeyRef;
            if (ref && !operatorMade.has(ref.name)) want(ref.name, ref.key);
          }
          // NATS reads every user's password from the environment: auth.conf names them ($BANCADA_NATS_…_PASSWORD)
          for (const source of container.envFrom ?? [])
            if (source.secretRef) for (const password of authConfPasswords(objects)) want(source.secretRef.name, password);
        }
      }
      expect(wanted.size).toBeGreaterThan(0);
      const given = new Map(made.map((secret) => [secret.metadata.name as string, new Set(Object.keys(secret.stringData))]));
      expect([...given.keys()].sort()).toEqual([...wanted.keys()].sort());
      for (const [name, keys] of wanted) expect([...given.get(name)!].sort(), name).toEqual([...keys].sort());
    },
  );

  describe("a production start lacking secrets", () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await freshDatabase("bancada_secrets_missing");
    });
    afterAll(async () => database?.drop());

    it("when several are missing, then one line names all of them and the command that makes them, exit 1, no stack", async () => {
      const env = { ...baseEnv, NODE_ENV: "production", DATABASE_URL: database.url, NATS_URL: "nats://127.0.0.1:1", PORT: "0" };
      const failed = (await bancada(["start"], env).catch((error: unknown) => error)) as { code: number; stderr: string };
      expect(failed.code).toBe(1);
      const lines = said(failed.stderr).split("\n");
      expect(lines).toHaveLength(1);
      for (const name of ["BANCADA_KEY_PEPPER", "BANCADA_BUS_SIGNING_KEY", "BOXES_SECRETS_KEY"]) expect(lines[0]).toContain(name);
      expect(lines[0]).toContain("'pnpm bancada secrets create'");
      expect(lines[0]).not.toMatch(/^bancada: |DEBUG=1/);
      // a service's own process needs its bus key, not the gateway's pepper
      const service = (await bancada(["start", "--only", "boxes"], env).catch((error: unknown) => error)) as { stderr: string };
      expect(said(service.stderr)).toMatch(/^Set BANCADA_BUS_VERIFY_KEY \(.*\) and BOXES_SECRETS_KEY \(.*'pnpm bancada secrets create'/);
      expect(service.stderr).not.toContain("BANCADA_KEY_PEPPER");
    });
  });
});

/** The password variables the rendered NATS authorization reads ($BANCADA_NATS_<COMPONENT>_PASSWORD). */
function authConfPasswords(objects: Manifest[]): string[] {
  const texts = objects.filter((object) => object.kind === "ConfigMap").flatMap((map) => Object.values(map.data ?? {}) as string[]);
  const names = texts.flatMap((text) => [...text.matchAll(/\$(BANCADA_NATS_[A-Z]+_PASSWORD)/g)].map((match) => match[1]!));
  expect(names.length).toBeGreaterThan(0);
  return [...new Set(names)];
}

describe.skipIf(noBwrap !== undefined)("a fresh production-shape start (DATABASE_URL, a new data folder)", { timeout: 300_000 }, () => {
  let database: TestDatabase;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    database = await freshDatabase("bancada_fresh_production");
    dir = await mkdtemp(path.join(tmpdir(), "bancada-fresh-production-"));
    // mkdtemp makes 0700: the boxes' users must cross every folder above the data folder
    await chmod(dir, 0o711);
    const { NATS_URL: _nats, ...rest } = process.env;
    const { stdout } = await run(process.execPath, [bin, "secrets", "create"], { env: rest, timeout: 120_000 });
    env = {
      ...rest,
      ...parseEnvFile(stdout),
      DATABASE_URL: database.url,
      BANCADA_DATA_DIR: path.join(dir, "data"),
      PORT: "0",
      // the box's disk is admitted whatever the test machine's free space (host admission has its own tests)
      BOXES_DISK_OVERCOMMIT: "1000",
    };
  });
  afterAll(async () => {
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("when the first start creates the data folder, then it stays crossable and create_box makes a box", async () => {
    const { stdout } = await run(
      process.execPath,
      [bin, "keys", "create", "--account", "fresh", "--person", "ops", "--agent", "test", "--scopes", "all", "--allow-writes", "--json"],
      { env, timeout: 120_000 },
    );
    const { key } = JSON.parse(stdout.trim().split("\n").pop()!) as { key: string };
    const started = await startBancada(env);
    try {
      // no service's private folder closes the shared folder above it (drafts' assets, once a 0700 folder in it, are
      // in PostgreSQL now; the boxes' folders are made beside)
      expect((await stat(path.join(dir, "data"))).mode & 0o001).toBe(0o001);
      const client = await connectClient(started.url, key);
      const created = await callTool<{ box: { id: string } }>(client, "create_box", { name: "fresh" }, { timeoutMs: 150_000 });
      expect(created.isError, created.text).toBe(false);
      const deleted = await callTool(client, "delete_box", { boxId: created.data.box.id, confirm: true }, { timeoutMs: 150_000 });
      expect(deleted.isError, deleted.text).toBe(false);
      await client.close();
    } finally {
      await started.stop();
    }
  });
});
