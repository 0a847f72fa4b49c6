/**
 * Which bus keys a process runs with. A service runs only calls tagged with its own key, which the gateway
 * derives from its master secret, so every process on one NATS must hold keys of one master (the gateway the
 * master, a service process the keys of the services it runs):
 * - configured keys (BANCADA_BUS_SIGNING_KEY / BANCADA_BUS_VERIFY_KEY) win;
 * - without NATS_URL the bus is in-process: a master made at start, which nothing outside the process can use;
 * - NATS_URL with the embedded PostgreSQL (a development machine): a master made once and kept in
 *   BANCADA_DATA_DIR/bus-master.json (mode 600), so the processes sharing that folder agree (one running no
 *   gateway keeps only its services' keys);
 * - NATS_URL with DATABASE_URL: keys must be configured, or the process refuses to start.
 */
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { BusKeys, type Logger } from "@bancada/service-kit";
import { UsageError, type Env } from "./env.js";
import { serviceNames } from "./services.js";

const busKeysHint =
  "run 'pnpm bancada bus-keys create' and set BANCADA_BUS_SIGNING_KEY on the gateway and each service's BANCADA_BUS_VERIFY_KEY line on its processes";

/** The keys for this process's bus; undefined: the in-process bus makes its own. */
export async function busKeysFor(env: Env, components: string[], log: Logger): Promise<BusKeys | undefined> {
  const runsGateway = components.includes("gateway");
  const services = components.filter((component) => component !== "gateway");
  let keys: BusKeys;
  if (env.BANCADA_BUS_SIGNING_KEY || env.BANCADA_BUS_VERIFY_KEY) {
    keys = BusKeys.from({ signingKey: env.BANCADA_BUS_SIGNING_KEY, verifyKey: env.BANCADA_BUS_VERIFY_KEY });
    if (!runsGateway && keys.holdsMaster)
      log.warn("this process runs no gateway but holds the bus master secret: give services their BANCADA_BUS_VERIFY_KEY line only");
  } else if (!env.NATS_URL) {
    return undefined;
  } else if (!env.DATABASE_URL) {
    keys = await developmentBusKeys(path.resolve(env.BANCADA_DATA_DIR), log);
  } else {
    throw new UsageError(`NATS_URL with DATABASE_URL needs bus keys: ${busKeysHint}.`);
  }
  if (runsGateway && !keys.holdsMaster)
    throw new UsageError(
      `The gateway derives every service's bus key from the master secret: set BANCADA_BUS_SIGNING_KEY (${busKeysHint}).`,
    );
  const missing = keys.holdsMaster ? [] : services.filter((service) => !keys.scopes.includes(service));
  if (missing.length)
    throw new UsageError(
      `BANCADA_BUS_VERIFY_KEY holds no key for ${missing.join(", ")}: add its line from 'pnpm bancada bus-keys create' (same master as the gateway's).`,
    );
  // a process without the gateway keeps only what its services need, whatever it was given
  return runsGateway ? keys : keys.only(services);
}

/** The data folder's master, made by whichever process starts first (a racing one reads the winner's). */
async function developmentBusKeys(dataDir: string, log: Logger): Promise<BusKeys> {
  const file = path.join(dataDir, "bus-master.json");
  await retireEd25519Pair(dataDir, log);
  const saved = await readMaster(file);
  if (saved) return saved;
  await mkdir(dataDir, { recursive: true });
  const master = BusKeys.generate();
  // written aside, then linked into place: a racing process sees no file or a whole one, never half of it
  const aside = `${file}.${process.pid}`;
  await writeFile(aside, `${JSON.stringify({ signingKey: master.export().signingKey }, null, 2)}\n`, { mode: 0o600 });
  try {
    await link(aside, file);
    return master;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return (await readMaster(file)) ?? master;
  } finally {
    await unlink(aside).catch(() => {});
  }
}

/** A data folder from before the per-service keys holds an Ed25519 pair in bus-keys.json: nothing reads it now. */
async function retireEd25519Pair(dataDir: string, log: Logger): Promise<void> {
  const old = path.join(dataDir, "bus-keys.json");
  try {
    await unlink(old);
    log.info(
      { file: old },
      "removed the old Ed25519 bus key pair: the bus keys are now derived from a new master secret in bus-master.json",
    );
  } catch (error) {
    // another process of this folder removed it first, or it was never there
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

async function readMaster(file: string): Promise<BusKeys | undefined> {
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (!text) return undefined;
  try {
    return BusKeys.from({ signingKey: (JSON.parse(text) as { signingKey?: string }).signingKey });
  } catch (error) {
    throw new UsageError(`${file} holds no usable bus master secret (${(error as Error).message}); delete it to make a new one.`);
  }
}

/** `bancada bus-keys create`: a new master and each service's key derived from it, as environment lines. */
export function runBusKeys(argv: string[], print: (line: string) => void): void {
  if (argv[0] !== "create") throw new UsageError(busKeysUsage);
  const master = BusKeys.generate();
  print("# The gateway's bus master secret: set it on the gateway only and keep it secret (every service's key derives from it).");
  print(`BANCADA_BUS_SIGNING_KEY=${master.export().signingKey}`);
  print("# Each service's key: set a service's line on its processes only (--only <service>); for several services in one");
  print("# process, join their values with commas (BANCADA_BUS_VERIFY_KEY=scripts:…,boards:…).");
  for (const service of serviceNames) print(`BANCADA_BUS_VERIFY_KEY=${master.only([service]).export().verifyKey}`);
}

export const busKeysUsage = `Usage:
  bancada bus-keys create                  print a new bus master secret (gateway) and each service's key derived from it`;
