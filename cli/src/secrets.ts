/**
 * Every secret the production shape needs (your PostgreSQL and NATS, components as separate processes), made in
 * one step (`bancada secrets create`), and the start's check that names every one it lacks in one message.
 *
 * | secret | who reads it |
 * | --- | --- |
 * | BANCADA_KEY_PEPPER, BANCADA_BUS_SIGNING_KEY (the bus master) | the gateway |
 * | BANCADA_BUS_VERIFY_KEY (`<service>:<key>`, derived from the master) | each service its own |
 * | BOXES_SECRETS_KEY | boxes (every replica the same) |
 * | BANCADA_NATS_<COMPONENT>_PASSWORD | the NATS servers (auth.conf), and each component its own as NATS_PASSWORD |
 *
 * The Kubernetes form holds them under the Secret names and keys infra/k8s references (infra/README.md, "Secrets").
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { BusKeys } from "@bancada/service-kit";
import { UsageError, type Env } from "./env.js";
import { natsTlsManifest } from "./nats-tls-secret.js";
import { serviceNames } from "./services.js";

export const secretsUsage = `Usage:
  bancada secrets create [--format env|kubernetes]   print new production secrets: an env file, or Secret manifests
  bancada secrets nats-tls [--namespace bancada]     print the Secret bancada-nats-tls: a new CA and the NATS servers' certificate (needs openssl)`;

const command = "'pnpm bancada secrets create'";

/** What a start must be given, and why, when it does not run on the embedded PostgreSQL with the in-process bus. */
const needs = {
  BANCADA_KEY_PEPPER: "a stable secret of at least 16 characters mixed into API key hashes",
  BANCADA_BUS_SIGNING_KEY: "the gateway's bus master secret",
  BANCADA_BUS_VERIFY_KEY: "each service's bus key, derived from the gateway's master",
  BOXES_SECRETS_KEY: "32 random bytes; stable: it seals the boxes' workspace secrets",
} as const;

type Needed = keyof typeof needs;

/**
 * The secrets this start lacks. The development values (a public pepper and secrets key, a bus master kept in the
 * data folder) serve the embedded PostgreSQL only: on a real database they would guard real data with values
 * anyone can read.
 */
function missingSecrets(env: Env, components: string[]): Needed[] {
  const missing: Needed[] = [];
  const runsGateway = components.includes("gateway");
  const ownDatabase = Boolean(env.DATABASE_URL);
  const production = env.NODE_ENV === "production";
  if (runsGateway && !env.BANCADA_KEY_PEPPER && (ownDatabase || env.GATEWAY_DATABASE_URL || production)) missing.push("BANCADA_KEY_PEPPER");
  // bus-keys.ts: with NATS_URL and DATABASE_URL no master is made; it names keys that are given but do not fit
  const busKeysGiven = env.BANCADA_BUS_SIGNING_KEY || env.BANCADA_BUS_VERIFY_KEY;
  if (env.NATS_URL && ownDatabase && !busKeysGiven) missing.push(runsGateway ? "BANCADA_BUS_SIGNING_KEY" : "BANCADA_BUS_VERIFY_KEY");
  // a variable boxes declares for itself (@bancada/boxes boxesEnvFields): validated with the rest, typed there
  const boxesKey = (env as { BOXES_SECRETS_KEY?: string }).BOXES_SECRETS_KEY;
  if (components.includes("boxes") && !boxesKey && (ownDatabase || env.BOXES_DATABASE_URL)) missing.push("BOXES_SECRETS_KEY");
  return missing;
}

/** Refuses a start that lacks secrets, naming all of them and the command that makes them, before anything starts. */
export function requireSecrets(env: Env, components: string[]): void {
  const missing = missingSecrets(env, components);
  if (missing.length === 0) return;
  const named = missing.map((name) => `${name} (${needs[name]})`);
  const list = named.length === 1 ? named[0] : `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`;
  throw new UsageError(
    `Set ${list}: with your own PostgreSQL (or NODE_ENV=production) the development values are not used. ${command} makes every secret of the production shape at once (an env file, or --format kubernetes for Secrets).`,
  );
}

/** One set of new secrets: the names are the variables the components read. */
interface ProductionSecrets {
  pepper: string;
  busMaster: BusKeys;
  boxesSecretsKey: string;
  /** By component: gateway and each service. */
  natsPasswords: Record<string, string>;
}

function createSecrets(): ProductionSecrets {
  const components = ["gateway", ...serviceNames];
  return {
    pepper: randomBytes(32).toString("base64"),
    busMaster: BusKeys.generate(),
    boxesSecretsKey: randomBytes(32).toString("base64"),
    // base64url: nothing nats-server's configuration or a shell would read specially
    natsPasswords: Object.fromEntries(components.map((component) => [component, randomBytes(24).toString("base64url")])),
  };
}

const serviceKey = (secrets: ProductionSecrets, service: string): string => secrets.busMaster.only([service]).export().verifyKey!;
const natsPasswordVariable = (component: string): string => `BANCADA_NATS_${component.toUpperCase()}_PASSWORD`;

/**
 * An env file (`node --env-file`, systemd's EnvironmentFile, `set -a; . file`) for the components of one machine.
 * BANCADA_BUS_VERIFY_KEY holds every service's key: a process keeps those of the services it runs. On machines of
 * their own, give each component only its lines (the comments say whose they are).
 */
function envFile(secrets: ProductionSecrets): string {
  const lines = [
    "# Bancada's production secrets ('bancada secrets create'). Keep this file secret (chmod 600) and keep the values:",
    "# a new pepper invalidates every API key, a new BOXES_SECRETS_KEY makes the stored workspace secrets unreadable.",
    "# The gateway only: the pepper of API key hashes and the bus master secret every service's key derives from.",
    `BANCADA_KEY_PEPPER=${secrets.pepper}`,
    `BANCADA_BUS_SIGNING_KEY=${secrets.busMaster.export().signingKey}`,
    "# The services: each one's bus key (a process keeps only the keys of the services it runs).",
    `BANCADA_BUS_VERIFY_KEY=${serviceNames.map((service) => serviceKey(secrets, service)).join(",")}`,
    "# boxes, the same on every replica: the key sealing workspace secrets (transfer URLs are signed with keys derived",
    "# from the boxes bus key: no key of their own).",
    `BOXES_SECRETS_KEY=${secrets.boxesSecretsKey}`,
    "# NATS users (infra/k8s/base/nats/auth.conf reads these): each component connects as NATS_USER=<component>",
    "# with NATS_PASSWORD set to its own line.",
    ...Object.entries(secrets.natsPasswords).map(([component, password]) => `${natsPasswordVariable(component)}=${password}`),
  ];
  return `${lines.join("\n")}\n`;
}

/** The Secrets infra/k8s references, by name and key (bancada-pg-app comes from the PostgreSQL operator, bancada-tls from cert-manager). */
function kubernetesSecrets(secrets: ProductionSecrets): Record<string, Record<string, string>> {
  return {
    "bancada-gateway": {
      BANCADA_KEY_PEPPER: secrets.pepper,
      BANCADA_BUS_SIGNING_KEY: secrets.busMaster.export().signingKey!,
    },
    "bancada-bus-keys": Object.fromEntries(serviceNames.map((service) => [service, serviceKey(secrets, service)])),
    "bancada-boxes": { BOXES_SECRETS_KEY: secrets.boxesSecretsKey },
    "bancada-nats-users": Object.fromEntries(
      Object.entries(secrets.natsPasswords).map(([component, password]) => [natsPasswordVariable(component), password]),
    ),
  };
}

/** The Secrets as manifests for `kubectl apply -f -` (JSON strings are YAML's double-quoted scalars). */
function kubernetesManifests(secrets: ProductionSecrets, namespace = "bancada"): string {
  const documents = Object.entries(kubernetesSecrets(secrets)).map(([name, data]) =>
    [
      "apiVersion: v1",
      "kind: Secret",
      "metadata:",
      `  name: ${name}`,
      `  namespace: ${namespace}`,
      "type: Opaque",
      "stringData:",
      ...Object.entries(data).map(([key, value]) => `  ${key}: ${JSON.stringify(value)}`),
    ].join("\n"),
  );
  return `# Bancada's production secrets ('bancada secrets create --format kubernetes'): apply once, before the first\n# deploy, and keep them (a new pepper invalidates every API key).\n${documents.join("\n---\n")}\n`;
}

/** `bancada secrets create [--format env|kubernetes]`. */
export function runSecrets(argv: string[], print: (text: string) => void): void {
  const [subcommand, ...rest] = argv;
  if (subcommand === undefined || subcommand === "help" || subcommand === "--help" || rest.includes("--help")) return print(secretsUsage);
  if (subcommand === "nats-tls") {
    const values = (() => {
      try {
        return parseArgs({ args: rest, options: { namespace: { type: "string", default: "bancada" } } }).values;
      } catch (error) {
        throw new UsageError(`${(error as Error).message}\n${secretsUsage}`);
      }
    })();
    if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(values.namespace))
      throw new UsageError(`--namespace takes a Kubernetes namespace name, not '${values.namespace}'.`);
    return print(natsTlsManifest(values.namespace));
  }
  if (subcommand !== "create") throw new UsageError(`Unknown secrets command '${subcommand}'.\n${secretsUsage}`);
  const values = (() => {
    try {
      return parseArgs({ args: rest, options: { format: { type: "string", default: "env" } } }).values;
    } catch (error) {
      throw new UsageError(`${(error as Error).message}\n${secretsUsage}`);
    }
  })();
  const secrets = createSecrets();
  if (values.format === "env") return print(envFile(secrets).trimEnd());
  if (values.format === "kubernetes") return print(kubernetesManifests(secrets).trimEnd());
  throw new UsageError(`--format takes env or kubernetes, not '${values.format}'.\n${secretsUsage}`);
}
