/**
 * `bancada secrets nats-tls`: the Secret bancada-nats-tls the manifests mount (the dev overlay's; prod's comes from
 * cert-manager) — a CA and a certificate for every name a component or a route dials, whose key fits it; and the
 * NATS TLS variables a start reads.
 */
import { execFile } from "node:child_process";
import { X509Certificate, createPrivateKey } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnv } from "../src/env.js";
import { bin } from "./start-bancada.js";

const run = promisify(execFile);

describe("bancada secrets nats-tls", { timeout: 60_000 }, () => {
  const { NATS_URL: _nats, DATABASE_URL: _database, ...baseEnv } = process.env;
  const bancada = (args: string[]) => run(process.execPath, [bin, ...args], { env: baseEnv, timeout: 60_000 });

  it("when run, then it prints a kubernetes.io/tls Secret whose certificate the CA signed, for every NATS server name, with its key", async () => {
    const secret = parse((await bancada(["secrets", "nats-tls"])).stdout) as {
      kind: string;
      type: string;
      metadata: { name: string; namespace: string };
      stringData: Record<string, string>;
    };
    expect(secret).toMatchObject({
      kind: "Secret",
      type: "kubernetes.io/tls",
      metadata: { name: "bancada-nats-tls", namespace: "bancada" },
    });
    expect(Object.keys(secret.stringData).sort()).toEqual(["ca.crt", "tls.crt", "tls.key"]);
    const ca = new X509Certificate(secret.stringData["ca.crt"]!);
    const cert = new X509Certificate(secret.stringData["tls.crt"]!);
    expect(ca.ca).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(secret.stringData["tls.key"]!))).toBe(true);
    // the names in bancada-config's NATS_URL and nats.conf's routes, and the Service's
    for (const name of ["nats-0.nats-headless", "nats-2.nats-headless", "nats-1.nats-headless.bancada.svc.cluster.local", "nats"])
      expect(cert.checkHost(name), name).toBe(name);
    expect(cert.checkHost("nats-0.nats-headless.elsewhere.svc")).toBeUndefined();
    // a new CA each time: nothing is shared between two runs
    const again = parse((await bancada(["secrets", "nats-tls", "--namespace", "staging"])).stdout) as {
      stringData: Record<string, string>;
    };
    expect(again.stringData["ca.crt"]).not.toBe(secret.stringData["ca.crt"]);
    expect(new X509Certificate(again.stringData["tls.crt"]!).checkHost("nats-0.nats-headless.staging.svc")).toBeTruthy();
  });

  it("when the namespace is not a Kubernetes name, then one line says so, exit 1", async () => {
    const failed = (await bancada(["secrets", "nats-tls", "--namespace", "Not_A_Name"]).catch((error: unknown) => error)) as {
      code: number;
      stderr: string;
    };
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/--namespace takes a Kubernetes namespace name, not 'Not_A_Name'\./);
    expect(failed.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("the NATS TLS variables", () => {
  let folder: string;
  let file: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), "bancada-nats-tls-env-"));
    file = path.join(folder, "client.pem");
    await writeFile(file, "-----BEGIN CERTIFICATE-----\n");
  });
  afterAll(async () => rm(folder, { recursive: true, force: true }));

  it("when a client certificate comes without its key (or the other way), or without NATS_URL, then the configuration names what is missing", () => {
    expect(() => loadEnv({ NATS_URL: "tls://nats:4222", NATS_TLS_CERT: file })).toThrow(/NATS_TLS_KEY: must be set with NATS_TLS_CERT/);
    expect(() => loadEnv({ NATS_URL: "tls://nats:4222", NATS_TLS_KEY: file })).toThrow(/NATS_TLS_CERT: must be set with NATS_TLS_KEY/);
    expect(() => loadEnv({ NATS_TLS_CA: file })).toThrow(/NATS_TLS_CA: is used only with NATS_URL/);
    expect(() => loadEnv({ NATS_URL: "tls://nats:4222", NATS_TLS_CA: path.join(folder, "missing.pem") })).toThrow(
      /NATS_TLS_CA: must name a file this process can read/,
    );
    const env = loadEnv({ NATS_URL: "tls://nats-0:4222,tls://nats-1:4222", NATS_TLS_CA: file, NATS_TLS_CERT: file, NATS_TLS_KEY: file });
    expect([env.NATS_TLS_CA, env.NATS_TLS_CERT, env.NATS_TLS_KEY]).toEqual([file, file, file]);
  });
});
