/**
 * `bancada secrets nats-tls`: the Secret `bancada-nats-tls` the Kubernetes manifests mount for TLS between the
 * components and the NATS servers and between the servers (infra/README.md, "NATS TLS"): a new CA (`ca.crt`; its
 * key is thrown away) and one certificate for every NATS server of the StatefulSet (`tls.crt`, `tls.key`; server
 * and client authentication, since the routes use it both ways). Made with the machine's `openssl`, in a private
 * temporary folder removed afterwards. Where cert-manager runs (the prod overlay) its Certificate writes the same
 * Secret instead.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { UsageError } from "./env.js";

/** Every name a component or another server reaches a NATS server by, in `namespace` (the StatefulSet nats, 3 pods). */
function natsServerNames(namespace: string, servers = 3): string[] {
  const suffixes = ["", `.${namespace}.svc`, `.${namespace}.svc.cluster.local`];
  return [
    ...suffixes.flatMap((suffix) => Array.from({ length: servers }, (_, n) => `nats-${n}.nats-headless${suffix}`)),
    ...suffixes.map((suffix) => `*.nats-headless${suffix}`),
    ...suffixes.map((suffix) => `nats${suffix}`),
  ];
}

function openssl(args: string[], cwd: string): void {
  try {
    execFileSync("openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
  } catch (error) {
    const reason =
      (error as { code?: string; stderr?: Buffer }).code === "ENOENT"
        ? "openssl is not installed"
        : String((error as { stderr?: Buffer }).stderr ?? error).trim();
    throw new UsageError(`Cannot make the NATS certificates (${reason}): this command needs openssl on PATH.`);
  }
}

/** The CA and the servers' certificate and key, as PEM text. P-256 keys; the certificate is valid `days` days. */
function makeNatsCertificates(names: string[], days: number): { ca: string; cert: string; key: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "bancada-nats-tls-"));
  try {
    const key = (file: string) => openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", file], dir);
    key("ca.key");
    openssl(
      ["req", "-x509", "-new", "-key", "ca.key", "-sha256", "-days", String(days), "-subj", "/CN=bancada-nats-ca", "-out", "ca.crt"],
      dir,
    );
    key("tls.key");
    const extensions = [
      "basicConstraints=CA:FALSE",
      "keyUsage=digitalSignature,keyEncipherment",
      "extendedKeyUsage=serverAuth,clientAuth",
      `subjectAltName=${names.map((name) => `DNS:${name}`).join(",")}`,
    ];
    writeFileSync(path.join(dir, "tls.ext"), `${extensions.join("\n")}\n`);
    openssl(["req", "-new", "-key", "tls.key", "-subj", "/CN=nats", "-out", "tls.csr"], dir);
    openssl(
      ["x509", "-req", "-in", "tls.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-sha256", "-days", String(days)].concat([
        "-extfile",
        "tls.ext",
        "-out",
        "tls.crt",
      ]),
      dir,
    );
    const read = (file: string) => readFileSync(path.join(dir, file), "utf8");
    return { ca: read("ca.crt"), cert: read("tls.crt"), key: read("tls.key") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The Secret manifest (`kubectl apply -f -`): type kubernetes.io/tls with `ca.crt` beside, as cert-manager writes it. */
export function natsTlsManifest(namespace = "bancada", days = 365): string {
  const { ca, cert, key } = makeNatsCertificates(natsServerNames(namespace), days);
  const block = (text: string) =>
    text
      .trimEnd()
      .split("\n")
      .map((line) => `    ${line}`)
      .join("\n");
  return [
    `# The NATS servers' TLS ('bancada secrets nats-tls'): a new CA and a certificate for nats-{0,1,2}.nats-headless, valid ${days} days.`,
    "# Apply once before the first deploy; to renew, make a new one, apply it and restart the nats StatefulSet and the components.",
    "apiVersion: v1",
    "kind: Secret",
    "metadata:",
    "  name: bancada-nats-tls",
    `  namespace: ${namespace}`,
    "type: kubernetes.io/tls",
    "stringData:",
    "  ca.crt: |",
    block(ca),
    "  tls.crt: |",
    block(cert),
    "  tls.key: |",
    block(key),
  ].join("\n");
}
