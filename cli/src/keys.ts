/** `bancada keys create|list|revoke`: API key management against the gateway's database. */
import { parseArgs } from "node:util";
import path from "node:path";
import { mcpStdioConfiguration, type StdioLaunch } from "@bancada/contracts";
import { createGatewayDb, gatewayScopes, KeyStore, migrateGateway } from "@bancada/gateway";
import { openDatabases, redactedUrl } from "./database.js";
import { stdioLaunchFor } from "./instance.js";
import { UsageError, keyPepper, type Env } from "./env.js";
import { serviceScopes } from "./services.js";

/** Every scope a key may hold: the services' own and the gateway's. */
const allScopes: readonly string[] = [...serviceScopes, ...gatewayScopes];

export const keysUsage = `Usage:
  bancada keys create --account <id> --person <id> --agent <label> --scopes <a,b|all> [--allow-writes] [--boards <id,id>] [--expires-in <days>] [--json]
  bancada keys list [--account <id>] [--json]
  bancada keys revoke <key id or prefix>`;

export async function runKeys(env: Env, argv: string[], print: (line: string) => void): Promise<void> {
  const [command, ...rest] = argv;
  // help and usage mistakes answer at once: nothing is started for them (not even the embedded PostgreSQL)
  if (command === undefined || command === "help" || command === "--help" || rest.includes("--help")) return print(keysUsage);
  if (!["create", "list", "revoke"].includes(command)) throw new UsageError(`Unknown keys command '${command}'.\n${keysUsage}`);
  if (command === "create") checkScopes(rest);
  const pepper = keyPepper(env);
  const databases = await openDatabases(env);
  const databaseUrl = await databases.urlFor("gateway");
  await migrateGateway(databaseUrl);
  const db = createGatewayDb(databaseUrl, 2);
  const keys = new KeyStore(db, { pepper, serviceScopes });
  // a key written where the user did not mean is a key the running Bancada calls unknown: say where it went
  const where = databases.embedded ? embeddedWhere(env) : `the database ${redactedUrl(databaseUrl)} (gateway schema)`;
  if (command !== "list") process.stderr.write(`bancada: keys are read from and written to ${where}.\n`);
  try {
    if (command === "create") {
      const stdio = databases.embedded ? stdioLaunchFor(path.resolve(env.BANCADA_DATA_DIR)) : undefined;
      return await create(keys, rest, print, stdio);
    }
    if (command === "list") return await list(keys, rest, print);
    if (command === "revoke") return await revoke(keys, rest, print);
    throw new UsageError(keysUsage);
  } finally {
    await db.$disconnect();
    await databases.stop();
  }
}

async function create(keys: KeyStore, argv: string[], print: (line: string) => void, stdio?: StdioLaunch): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      account: { type: "string" },
      person: { type: "string" },
      agent: { type: "string" },
      scopes: { type: "string" },
      "allow-writes": { type: "boolean", default: false },
      boards: { type: "string" },
      "expires-in": { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const missing = ["account", "person", "agent", "scopes"].filter((name) => !values[name as keyof typeof values]);
  if (missing.length) throw new UsageError(`Missing --${missing.join(", --")}.\n${keysUsage}`);
  const scopes =
    values.scopes === "all"
      ? [...allScopes]
      : values
          .scopes!.split(",")
          .map((s) => s.trim())
          .filter(Boolean);
  const days = values["expires-in"] ? Number(values["expires-in"].replace(/d$/, "")) : undefined;
  if (days !== undefined && !(days > 0)) throw new UsageError("--expires-in takes a number of days, e.g. 30 or 30d.");
  const { key, record } = await keys.create({
    accountId: values.account!,
    personId: values.person!,
    agentId: values.agent!,
    scopes,
    allowWrites: values["allow-writes"] ?? false,
    allowedBoardIds: values.boards
      ? values.boards
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : null,
    expiresAt: days ? new Date(Date.now() + days * 86_400_000) : null,
  });
  if (values.json) return print(JSON.stringify({ key, ...record }));
  print(
    `Created key ${record.id} (${record.prefix}…) for account ${record.accountId}, person ${record.personId}, agent ${record.agentId}.`,
  );
  print(`Scopes: ${record.scopes.join(" ")}; writes ${record.allowWrites ? "allowed" : "not allowed"}.`);
  print(`\n  ${key}\n\nThis is the only time the key is shown. Send it as 'Authorization: Bearer <key>'.`);
  if (stdio)
    print(`\nMCP client configuration over stdio (the client starts Bancada with this key):\n${mcpStdioConfiguration(stdio, key)}`);
}

async function list(keys: KeyStore, argv: string[], print: (line: string) => void): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { account: { type: "string" }, json: { type: "boolean", default: false } } });
  const records = await keys.list(values.account ? { accountId: values.account } : {});
  if (values.json) return print(JSON.stringify(records));
  if (records.length === 0) return print("No keys yet. Create one with 'pnpm bancada keys create'.");
  for (const r of records) {
    const state = r.revokedAt ? "revoked" : r.expiresAt && new Date(r.expiresAt) < new Date() ? "expired" : "active";
    print(
      `${r.id}  ${r.prefix}…  ${state.padEnd(7)}  account=${r.accountId} person=${r.personId} agent=${r.agentId} scopes=${r.scopes.join(",")}${r.allowWrites ? " writes" : ""}`,
    );
  }
}

async function revoke(keys: KeyStore, argv: string[], print: (line: string) => void): Promise<void> {
  const target = argv[0];
  if (!target) throw new UsageError(`Name the key to revoke.\n${keysUsage}`);
  if (!(await keys.revoke(target))) throw new UsageError(`No active key with id or prefix ${target}.`);
  print(`Revoked ${target}. It stops working within a few seconds everywhere.`);
}

function embeddedWhere(env: Env): string {
  return `the embedded PostgreSQL in ${path.resolve(env.BANCADA_DATA_DIR)} (a Bancada started with DATABASE_URL does not see these keys: set the same DATABASE_URL here)`;
}

/** An unknown scope is refused before anything starts, naming the valid ones. */
function checkScopes(argv: string[]): void {
  const at = argv.findIndex((arg) => arg === "--scopes" || arg.startsWith("--scopes="));
  if (at < 0) return;
  const value = argv[at]!.includes("=") ? argv[at]!.slice("--scopes=".length) : (argv[at + 1] ?? "");
  if (value === "all") return;
  const unknown = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s && !allScopes.includes(s));
  if (unknown.length) throw new UsageError(`Unknown scope(s): ${unknown.join(", ")}. Valid scopes: ${allScopes.join(" ")} (or all).`);
}
