/**
 * TLS for NATS: the configuration blocks a nats-server needs for client connections (`tls {}`) and for the
 * routes between the servers of a cluster (`cluster { tls {} }`), and certificates made with `openssl` for a
 * machine of one's own (the rehearsal, tests, benchmarks). Certificates are never committed: a deployment takes
 * them from a Secret (dev: `bancada secrets create --format kubernetes`) or from cert-manager (prod).
 *
 * Routes always verify the other server's certificate (nats-server asks a route for one), so the server
 * certificate is made for both server and client authentication. Clients authenticate with their NATS user;
 * `verifyClients` also asks them for a certificate of the same CA.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const quote = (value) => JSON.stringify(value);

/** `tls { … }` for the client port: the server's certificate and key, and the CA that checks client certificates. */
export function renderClientTls({ caFile, certFile, keyFile, verifyClients = false, timeoutSeconds = 2 }) {
  return [
    "tls {",
    `  cert_file: ${quote(certFile)}`,
    `  key_file: ${quote(keyFile)}`,
    `  ca_file: ${quote(caFile)}`,
    `  verify: ${verifyClients}`,
    `  timeout: ${timeoutSeconds}`,
    "}",
  ].join("\n");
}

/** `tls { … }` to put inside `cluster { }`: each route presents this certificate and checks the other's against the CA. */
export function renderRouteTls({ caFile, certFile, keyFile, timeoutSeconds = 2 }) {
  return [
    "tls {",
    `  cert_file: ${quote(certFile)}`,
    `  key_file: ${quote(keyFile)}`,
    `  ca_file: ${quote(caFile)}`,
    "  verify: true",
    `  timeout: ${timeoutSeconds}`,
    "}",
  ].join("\n");
}

/** Indents every line of a block by `spaces` (a `tls {}` placed inside `cluster {}`). */
export function indent(block, spaces = 2) {
  return block
    .split("\n")
    .map((line) => (line ? `${" ".repeat(spaces)}${line}` : line))
    .join("\n");
}

function openssl(args, cwd) {
  execFileSync(process.env.OPENSSL_BIN || "openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
}

/**
 * A CA, a server certificate for `hosts` (names and IP addresses; server and client authentication, so routes
 * use it too) and one client certificate per name in `clients`, as PEM files in `dir` (keys mode 600). P-256
 * keys, valid `days` days. Returns the paths.
 */
export function makeCertificates(dir, { hosts = ["127.0.0.1", "localhost"], clients = [], days = 2 } = {}) {
  mkdirSync(dir, { recursive: true });
  const file = (name) => path.join(dir, name);
  const key = (name) => {
    openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", name], dir);
    chmodSync(file(name), 0o600);
  };
  key("ca.key");
  openssl(
    ["req", "-x509", "-new", "-key", "ca.key", "-sha256", "-days", String(days), "-subj", "/CN=bancada-nats-ca", "-out", "ca.crt"],
    dir,
  );
  const sign = (name, subject, extensions) => {
    key(`${name}.key`);
    writeFileSync(file(`${name}.ext`), `${extensions.join("\n")}\n`);
    openssl(["req", "-new", "-key", `${name}.key`, "-subj", subject, "-out", `${name}.csr`], dir);
    openssl(
      ["x509", "-req", "-in", `${name}.csr`, "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-sha256"].concat([
        "-days",
        String(days),
        "-extfile",
        `${name}.ext`,
        "-out",
        `${name}.crt`,
      ]),
      dir,
    );
  };
  const san = hosts.map((host) => (/^[\d.]+$|:/.test(host) ? `IP:${host}` : `DNS:${host}`)).join(",");
  sign("server", "/CN=bancada-nats", [
    "basicConstraints=CA:FALSE",
    "keyUsage=digitalSignature,keyEncipherment",
    "extendedKeyUsage=serverAuth,clientAuth",
    `subjectAltName=${san}`,
  ]);
  const clientFiles = {};
  for (const client of clients) {
    sign(`client-${client}`, `/CN=${client}`, ["basicConstraints=CA:FALSE", "keyUsage=digitalSignature", "extendedKeyUsage=clientAuth"]);
    clientFiles[client] = { certFile: file(`client-${client}.crt`), keyFile: file(`client-${client}.key`) };
  }
  return {
    caFile: file("ca.crt"),
    certFile: file("server.crt"),
    keyFile: file("server.key"),
    clients: clientFiles,
  };
}
