/**
 * Which bus keys a process runs with. Services run only calls the gateway signed, so every process on one
 * NATS must hold the same pair (the gateway its private half, services the public half):
 * - configured keys (BANCADA_BUS_SIGNING_KEY / BANCADA_BUS_VERIFY_KEY) win;
 * - without NATS_URL the bus is in-process: a pair made at start, which nothing outside the process can use;
 * - NATS_URL with the embedded PostgreSQL (a development machine): a pair made once and kept in
 *   BANCADA_DATA_DIR/bus-keys.json (mode 600), so the processes sharing that folder agree;
 * - NATS_URL with DATABASE_URL: keys must be configured, or the process refuses to start.
 */
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { BusKeys, type Logger } from "@bancada/service-kit";
import { UsageError, type Env } from "./env.js";

export const busKeysHint =
  "run 'pnpm bancada bus-keys create' and set BANCADA_BUS_SIGNING_KEY on the gateway and BANCADA_BUS_VERIFY_KEY on every service";

/** The keys for this process's bus; undefined: the in-process bus makes its own. */
export async function busKeysFor(env: Env, components: string[], log: Logger): Promise<BusKeys | undefined> {
  const runsGateway = components.includes("gateway");
  let keys: BusKeys | undefined;
  if (env.BANCADA_BUS_SIGNING_KEY || env.BANCADA_BUS_VERIFY_KEY) {
    keys = BusKeys.from({ signingKey: env.BANCADA_BUS_SIGNING_KEY, verifyKey: env.BANCADA_BUS_VERIFY_KEY });
  } else if (!env.NATS_URL) {
    return undefined;
  } else if (!env.DATABASE_URL) {
    keys = await developmentBusKeys(path.resolve(env.BANCADA_DATA_DIR));
  } else {
    throw new UsageError(`NATS_URL with DATABASE_URL needs bus keys: ${busKeysHint}.`);
  }
  if (runsGateway && !keys.canSign)
    throw new UsageError(`The gateway signs what it puts on the bus: set BANCADA_BUS_SIGNING_KEY (${busKeysHint}).`);
  if (!runsGateway && keys.canSign)
    log.warn("this process runs no gateway but holds the bus signing key: give services BANCADA_BUS_VERIFY_KEY only");
  return keys;
}

/** The data folder's pair, made by whichever process starts first (a racing one reads the winner's). */
async function developmentBusKeys(dataDir: string): Promise<BusKeys> {
  const file = path.join(dataDir, "bus-keys.json");
  const saved = await readPair(file);
  if (saved) return saved;
  await mkdir(dataDir, { recursive: true });
  const pair = BusKeys.generate();
  // written aside, then linked into place: a racing process sees no file or a whole one, never half of it
  const aside = `${file}.${process.pid}`;
  await writeFile(aside, `${JSON.stringify(pair.export(), null, 2)}\n`, { mode: 0o600 });
  try {
    await link(aside, file);
    return pair;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return (await readPair(file)) ?? pair;
  } finally {
    await unlink(aside).catch(() => {});
  }
}

async function readPair(file: string): Promise<BusKeys | undefined> {
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (!text) return undefined;
  try {
    return BusKeys.from(JSON.parse(text) as { signingKey?: string; verifyKey?: string });
  } catch (error) {
    throw new UsageError(`${file} holds no usable bus key pair (${(error as Error).message}); delete it to make a new one.`);
  }
}

/** `bancada bus-keys create`: a new pair as environment lines. */
export function runBusKeys(argv: string[], print: (line: string) => void): void {
  if (argv[0] !== "create") throw new UsageError(busKeysUsage);
  const { signingKey, verifyKey } = BusKeys.generate().export();
  print("# The gateway's bus signing key (Ed25519, PKCS8): set it on the gateway only and keep it secret.");
  print(`BANCADA_BUS_SIGNING_KEY=${signingKey}`);
  print("# Its public half: set it on every service (processes started with --only <service>).");
  print(`BANCADA_BUS_VERIFY_KEY=${verifyKey}`);
}

export const busKeysUsage = `Usage:
  bancada bus-keys create                  print a new bus key pair (gateway signing key, services' verify key)`;
