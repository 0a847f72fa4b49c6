/** The boxes service: its driver, the recovery of existing boxes, its tools on the bus, REST routes, watching, reaping and expiry. */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import path from "node:path";
import { defineService, maxReplyBytes, type Logger, type RunningService, type ServiceOptions } from "@bancada/service-kit";
import { boxesConfig, type BoxesConfig, type BoxesConfigOptions } from "./config.js";
import { createBoxesDb, postgresSchema, type BoxesDb } from "./db/client.js";
import type { BoxDriver } from "./driver/box-driver.js";
import { createLocalDriver } from "./driver/local/local-driver.js";
import { unavailableDriver } from "./driver/unavailable-driver.js";
import { AccountCalls } from "./domain/account-calls.js";
import { Background } from "./domain/background.js";
import { BoxSuspensions } from "./domain/suspensions.js";
import { nextHostUid } from "./domain/capacity.js";
import { RunningOperations } from "./domain/running-operations.js";
import type { BoxesRuntime } from "./domain/context.js";
import { expireKeys } from "./domain/idempotency.js";
import type { PlanName } from "./domain/plans.js";
import { heartbeat, heartbeatEveryMs } from "./domain/placement.js";
import { reapBoxes } from "./domain/reaper.js";
import { moveDrainedBoxes } from "./domain/move-box.js";
import { transferLimits } from "./domain/transfers/settings.js";
import { recoverBoxes, watchBoxes } from "./domain/reconcile.js";
import { boxesRoutes } from "./http/routes.js";
import { PortProxy } from "./http/port-proxy.js";
import { startSshServer } from "./ssh/ssh-server.js";
import { recordSshEndpoint } from "./domain/ssh/ssh-command.js";
import { servePublishedPorts, unpublishDeletedBoxes } from "./domain/ports/publish-port.js";
import { boxesInstructions, boxesTools, boxesVocabulary } from "./tools/index.js";
import { NodeDrivers } from "./node/node-drivers.js";
import { agentNodeKey, deriveNodeKey, transferKey } from "./node/node-key.js";
import { boxFilesResource } from "./resources/box-files-resource.js";
import boxesPackage from "@bancada/boxes/package.json" with { type: "json" };

export interface BoxesServiceOptions extends ServiceOptions, BoxesConfigOptions {
  /** Where local boxes keep their disks (default `.data/boxes`). */
  dataDir?: string;
  /** A taken SSH port gives way to a free one (the embedded mode: one machine, one user, a port is just a number). */
  sshPortFallback?: boolean;
  /** Another driver than the local one (same interface). */
  driver?: BoxDriver;
  /** Most processes per local box (default 1024). */
  pidsMax?: number;
  /** The most of a job's output its log keeps (default 64 MiB). */
  jobLogMaxBytes?: number;
  cgroups?: "auto" | "none";
  /** Where bubblewrap is (default /usr/bin/bwrap). */
  bwrapPath?: string;
  /** The plan of accounts without a row in account_plans (default free). */
  defaultPlan?: PlanName;
  /** The largest answer the tool host lets onto the bus (default: service-kit's maxReplyBytes). */
  maxReplyBytes?: number;
  /** How often dead boxes and ended jobs are looked for (default 2 s). */
  watchIntervalMs?: number;
  /** How often the control plane looks for stopped boxes to move off drained nodes (default 2 s). */
  moveIntervalMs?: number;
  /** How often the reapers (idle sleep, run limit, deleteAfterSeconds) look for due boxes (default 5 s). */
  reapIntervalMs?: number;
  /** "directory": box disks are plain folders, dataGiB not enforced (default: images where loop devices work). */
  disks?: "auto" | "directory";
  /** The clock state changes and usage go by (default: the system's); tests simulate a month with it. */
  clock?: () => Date;
  /** Lower transfer limits than the product's 5 GB upload / 2 GB archive (tests reach the edges with them). */
  maxUploadBytes?: number;
  maxArchiveBytes?: number;
}

/** `stop()` stops serving; boxes and their jobs keep running (a new service finds them). */
export type BoxesService = RunningService<"boxes", BoxesDb, { driver: BoxDriver; runtime: BoxesRuntime }>;

export const migrationsDir = path.join(import.meta.dirname, "../prisma/migrations");

/**
 * service-kit's tool host turns any reply over maxReplyBytes into payload_too_large. Answers are sized to
 * fit below it — a cut, marked output beats no output.
 */
/** Room for the reply envelope and the small fields around the big texts. */
const replyEnvelopeBytes = 16 * 1024;

/**
 * Connections of the reapers' and the watcher's own pool. They share the calls' pool no more: 450 concurrent execs
 * once left a reaper round "Unable to start a transaction". A round takes one for its claim, then one per box it acts on;
 * the node's heartbeat (domain/placement.ts) one more, so that a busy round never makes the node look down.
 */
const housekeepingPoolMax = 4;

export const boxesService = defineService<BoxesServiceOptions>()({
  name: "boxes",
  scopes: boxesPackage.bancada.scopes,
  version: "0.1.0",
  instructions: boxesInstructions,
  vocabulary: boxesVocabulary,
  prisma: { schema: postgresSchema, migrationsDir, createClient: createBoxesDb },
  async context({ db, options, log }): Promise<BoxesRuntime> {
    const config = boxesConfig(options);
    if (config.developmentSecretsKey) log.warn("workspace secrets are sealed with the public development key: set BOXES_SECRETS_KEY");
    // The warm pool's boxes take their host uids from the same sequence as create_box's.
    const hostUids = () => nextHostUid(db, config);
    const driver =
      options.driver ??
      (config.role === "control"
        ? controlPlaneDriver(config.node)
        : await localDriverOrUnavailable(options, log, config.uids.base, config.node, { ...config, hostUids }));
    const background = new Background(log);
    const boxesKey = options.bus.keys.for("boxes");
    const agentKey = agentNodeKey(options.bus.keys, driver.node, config.nodeKey);
    // transfer URLs: one key for every node when the deployment sets it, else each node's own (node/node-key.ts)
    const shared = config.signingKey ? Buffer.from(config.signingKey) : null;
    let ports: PortProxy | undefined;
    const runtime: BoxesRuntime = {
      db,
      role: config.role,
      driver,
      log,
      instance: randomUUID(),
      background,
      operations: new RunningOperations(background),
      replyBudgetBytes: (options.maxReplyBytes ?? maxReplyBytes) - replyEnvelopeBytes,
      defaultPlan: options.defaultPlan ?? "free",
      capacity: config.capacity,
      placement: config.placement,
      uids: config.uids,
      prices: config.prices,
      secretsKey: config.secretsKey,
      now: options.clock ?? (() => new Date()),
      inFlight: { exec: 0, jobWait: 0 },
      accountCalls: new AccountCalls(config.accountCalls),
      suspensions: new BoxSuspensions(),
      housekeepingDb: createBoxesDb(options.databaseUrl, housekeepingPoolMax),
      transfers: {
        publicUrl: config.publicUrl,
        signingKey: shared ?? transferKey(agentKey),
        keyOf: (node) => shared ?? (node === driver.node ? transferKey(agentKey) : transferKey(deriveNodeKey(boxesKey, node))),
        now: () => (options.clock ? options.clock().getTime() : Date.now()),
        maxUploadBytes: options.maxUploadBytes ?? transferLimits.uploadBytes,
        maxArchiveBytes: options.maxArchiveBytes ?? transferLimits.archiveBytes,
      },
      // the published ports' proxy reads the runtime it is part of (the database, the driver, the wake-up of boxes)
      get ports() {
        return (ports ??= new PortProxy(runtime));
      },
      portSettings: config.ports,
      ssh: { port: null, host: config.ports.publicHost },
      nodes: new NodeDrivers({
        bus: options.bus,
        subjects: options.subjects,
        local: driver,
        agentKey,
        boxesKey,
        log,
      }),
    };
    return runtime;
  },
  async start(runtime, { options, log }) {
    if (runtime.driver.available) await recoverBoxes(runtime);
    if (runtime.driver.available) await servePublishedPorts(runtime);
    // the node agent: this node's driver operations for any replica (node/node-agent.ts)
    runtime.nodes.serveLocal(runtime.ports);
    runtime.nodes.linkReplicas(runtime);
    const { sshPort, sshLimits } = boxesConfig(options);
    if (runtime.driver.available && sshPort !== null) {
      const dataDir = path.resolve(options.dataDir ?? ".data/boxes");
      const hostKeyFile = path.join(dataDir, "ssh_host_ed25519_key");
      const listenOn = (port: number) =>
        startSshServer(runtime, { port, bindHost: runtime.portSettings.bindHost, hostKeyFile, limits: sshLimits });
      const inUse = (err: unknown) => (err as NodeJS.ErrnoException).code === "EADDRINUSE";
      // Without SSH the boxes still serve everything else: a taken port is one line (no stack), and sshCommand says null.
      const endpoint = await listenOn(sshPort)
        .catch(async (err: unknown) => {
          if (!options.sshPortFallback || !inUse(err)) throw err;
          const fallback = await listenOn(0);
          log.info(
            { port: fallback.port, taken: sshPort },
            `the SSH endpoint listens on port ${fallback.port} (${sshPort} is in use; BOXES_SSH_PORT chooses)`,
          );
          return fallback;
        })
        .catch((err: unknown) => {
          const reason = err instanceof Error ? err.message : String(err);
          log.warn(
            { port: sshPort, reason },
            "the SSH endpoint could not listen (BOXES_SSH_PORT sets another port); boxes have no sshCommand",
          );
          runtime.ssh.failure = reason;
          return null;
        });
      runtime.ssh.port = endpoint?.port ?? null;
      if (endpoint) runtime.ssh.close = () => endpoint.close();
    }
    // an endpoint that could not listen (another replica of this node holds the port) leaves that one's row
    if (runtime.driver.available && (sshPort === null || runtime.ssh.port !== null)) await recordSshEndpoint(runtime);
    // registered with what it can hold before it serves: create_box places boxes here from now on
    if (runtime.driver.available) await heartbeat(runtime);
  },
  tools: (runtime) => boxesTools(runtime),
  // a node agent alone takes no tool call from the bus: the control plane's replicas do, and reach it (BOXES_ROLE)
  servesBus: (runtime) => runtime.role !== "node",
  resources: (runtime) => [boxFilesResource(runtime)],
  // any replica serves any call: the use cases reach the box's node themselves (domain/box-node.ts)
  routes: (runtime) => boxesRoutes(runtime),
  jobs: (runtime, { options }) => [
    { name: "expiring idempotency keys", intervalMs: 3600_000, run: () => expireKeys(runtime.db), runNow: true },
    // the control plane's: stopped boxes of drained nodes go to other nodes (domain/move-box.ts)
    runtime.role !== "node" && movingOffDrainedNodes(runtime, options.moveIntervalMs ?? 2_000),
    runtime.driver.available && { name: "heartbeat", intervalMs: heartbeatEveryMs, run: () => heartbeat(runtime) },
    runtime.driver.available && {
      name: "watching boxes",
      intervalMs: options.watchIntervalMs ?? 2_000,
      run: () => watchBoxes({ ...runtime, db: runtime.housekeepingDb }),
    },
    runtime.driver.available && {
      name: "unpublishing ports of deleted boxes",
      intervalMs: 2_000,
      run: () => unpublishDeletedBoxes(runtime),
    },
    runtime.driver.available && {
      name: "reaping boxes",
      intervalMs: options.reapIntervalMs ?? 5_000,
      run: () => reapBoxes({ ...runtime, db: runtime.housekeepingDb }),
    },
  ],
  async stop(runtime) {
    runtime.nodes.stop();
    await runtime.background.settled();
    await runtime.ports.closeAll();
    await runtime.ssh.close?.();
    await runtime.driver.close();
    await runtime.housekeepingDb.$disconnect();
  },
  expose: (runtime) => ({ driver: runtime.driver, runtime }),
});

function movingOffDrainedNodes(runtime: BoxesRuntime, intervalMs: number) {
  const failures = new Map<string, number>();
  return { name: "moving boxes off drained nodes", intervalMs, run: () => moveDrainedBoxes(runtime, failures) };
}

export const createBoxesService = (options: BoxesServiceOptions): Promise<BoxesService> => boxesService.start(options);

/**
 * The driver of a control-plane-only replica (BOXES_ROLE=control): it runs no box, so this process needs no
 * privilege; every box is placed on a node agent's node, and with none up create_box says so.
 */
function controlPlaneDriver(node: string | null): BoxDriver {
  return unavailableDriver(
    "local",
    `${node ?? hostname()}-control-plane`,
    "this replica is the control plane only (BOXES_ROLE=control) and no node agent is up: start one on a machine that runs boxes (BOXES_ROLE=node).",
  );
}

/** The local driver, or — when this machine cannot run it (no bubblewrap) — a driver that says so on every call. */
async function localDriverOrUnavailable(
  options: BoxesServiceOptions,
  log: Logger,
  probeUid: number,
  node: string | null,
  disks: Pick<BoxesConfig, "warmPool" | "diskStore" | "enterHelper"> & { hostUids: () => Promise<number> },
): Promise<BoxDriver> {
  try {
    return await createLocalDriver({
      dataDir: path.resolve(options.dataDir ?? ".data/boxes"),
      log,
      ...(options.pidsMax ? { pidsMax: options.pidsMax } : {}),
      ...(options.jobLogMaxBytes ? { jobLogMaxBytes: options.jobLogMaxBytes } : {}),
      ...(options.cgroups ? { cgroups: options.cgroups } : {}),
      ...(options.bwrapPath ? { bwrapPath: options.bwrapPath } : {}),
      ...(options.disks ? { disks: options.disks } : {}),
      ...(node ? { node } : {}),
      probeUid,
      pool: disks.warmPool,
      hostUids: disks.hostUids,
      store: disks.diskStore,
      ...(disks.enterHelper ? { enterHelper: disks.enterHelper } : {}),
    });
  } catch (error) {
    log.error({ err: error }, "boxes cannot run on this machine; box calls will answer unavailable");
    return unavailableDriver("local", node ?? hostname(), (error as Error).message);
  }
}
