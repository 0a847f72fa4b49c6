/**
 * The boxes service's own settings from the environment: the only place in this service that reads
 * process.env. Read once when the service starts; an option given to createBoxesService wins over its
 * variable (tests set what they need that way). Invalid values stop the start with the variable's name.
 *   BOXES_HOST_MEMORY_MIB      memory of this machine (default: MemTotal)
 *   BOXES_MEMORY_RESERVE_MIB   memory kept for the host itself, never given to boxes (default 2048)
 *   BOXES_HOST_CORES           cores of this machine (default: the cores Node sees)
 *   BOXES_VCPU_OVERCOMMIT      vCPUs handed out per core (default 4): CPU is shared, memory never is
 *   BOXES_ACCOUNT_SHARE        the most one account may hold of this machine's memory and vCPUs for boxes, in
 *                              percent (default 50: a node always keeps room for a second account)
 *   BOXES_DISK_OVERCOMMIT      GiB of box disks promised per GiB free in the data folder (default 1: a box image
 *                              grows one-for-one with its writes, so none is promised that the disk does not have)
 *   BOXES_ACCOUNT_CALLS        box calls one account may have in flight on this replica (exec, files, jobs,
 *                              transfers; default 32): past it, rate_limited
 *   BOXES_UID_BASE             the first host uid given to a box (default 100000)
 *   BOXES_UID_COUNT            how many uids boxes may use from there (default 1000000)
 *   BOXES_PRICE_VCPU_SECOND, BOXES_PRICE_MIB_SECOND, BOXES_PRICE_DISK_GIB_MONTH, BOXES_PRICE_SNAPSHOT_GIB_MONTH
 *                              the price table in reais as decimal text (domain/usage/prices.ts has the defaults)
 *   BOXES_PUBLIC_URL           where clients reach the REST API, the start of transfer URLs (default
 *                              http://HOST:PORT, the gateway's address in one process)
 *   BOXES_PORT_RANGE           host ports published box ports are served on, first-last (default 42000-42999)
 *   BOXES_PORTS_BIND           the address those listen on (default HOST, else 127.0.0.1)
 *   BOXES_PORTS_HOST           the host name in port URLs (default the host of BOXES_PUBLIC_URL)
 *   BOXES_SSH_PORT             the SSH endpoint's port (default 2222; "off": no SSH); it listens on BOXES_PORTS_BIND
 *   BOXES_SSH_CONNECTIONS_PER_IP  open SSH connections from one address (IPv6: one /64; default 64)
 *   BOXES_SSH_UNAUTHENTICATED  SSH connections not authenticated yet, from everyone (default 512)
 *   BOXES_SSH_AUTH_TIMEOUT_MS  an SSH connection not authenticated within this is dropped (default 10000)
 *   BOXES_PORT_CONNECTIONS     open connections to one published port (default 256)
 *   BOXES_PORT_CONNECTIONS_PER_IP  open connections to one published port from one address (default 64)
 *   BOXES_PORT_CONNECTIONS_TOTAL   open connections to all published ports of this node (default 4096)
 *   BOXES_SIGNING_KEY          the key transfer URLs (only) are signed with, ≥ 32 characters, the same for every
 *                              node (default: each node's own, derived from its node key: node/node-key.ts)
 *   BOXES_ROLE                 what this process runs (default all): all — the control plane and this machine's node
 *                              agent, as one process on a laptop; control — the control plane only (tools, REST,
 *                              placement; no box runs here: it needs no privilege); node — this machine's node agent
 *                              only (its boxes, disks, published ports, SSH and transfer URLs; it takes no tool call
 *                              from the bus: the control plane does)
 *   BOXES_NODE                 this machine's name among the replicas (default: the hostname); letters, digits, . _ -
 *   BOXES_NODE_KEY             the key of this node's agent (base64 of 32 bytes; `bancada boxes node-key <node>` prints it),
 *                              on a machine that runs the node agent without the boxes service's bus key
 *   BOXES_WARM_POOL            boxes started ahead of create_box, each a disk and a running sandbox with a host uid of
 *                              its own (driver/local/disk-pool.ts): a count of boxes of the smallest disk size, or
 *                              size:count pairs in GiB such as 20:4,50:1 (default 2 of 20 GiB; 0: none; image
 *                              disks only: a machine without loop devices starts none)
 *   BOXES_DISK_STORE           auto (default): when the data folder cannot reflink, box images and snapshots live on an
 *                              XFS image with reflink=1 made in it (driver/local/disk-store.ts); off: on the data folder
 *   BOXES_ENTER_HELPER         the enter helper (native/bancada-enter.c) built elsewhere, e.g. with the boxes image:
 *                              root's, writable by root only; unset, the driver builds it with the machine's cc
 *   BOXES_DISK_STORE_GIB       that XFS image's size (sparse: it takes what is written; default: the free space then)
 *   BOXES_NODE_LABELS          this node's labels, comma-separated (e.g. ssd,gpu): a template may require one
 *   BOXES_TEMPLATE_LABELS      the labels a template's boxes need on their node, as template=label pairs, comma-separated
 *   BOXES_PLACEMENT            how create_box picks a node (domain/placement.ts): spread (default) or pack
 *   BOXES_SECRETS_KEY          32 bytes (base64 or hex) sealing workspace secrets; without it the public development
 *                              key (the bancada command requires one with DATABASE_URL: cli/src/env.ts)
 */
import { availableParallelism, totalmem } from "node:os";
import type { PoolSize } from "./driver/local/disk-pool.js";
import type { DiskStoreOptions } from "./driver/local/disk-store.js";
import { limits } from "./domain/limits.js";
import type { PortConnectionLimits, PortSettings } from "./domain/ports/port-settings.js";
import { developmentSecretsKey, SecretsKey } from "./domain/secrets/sealing.js";
import { priceTable, type PriceTable, type PriceText } from "./domain/usage/prices.js";
import { boxesRoles, type BoxesRole, type HostCapacity, type PlacementSettings, type UidRange } from "./domain/host-settings.js";

export interface BoxesConfig {
  role: BoxesRole;
  capacity: HostCapacity;
  uids: UidRange;
  prices: PriceTable;
  publicUrl: string;
  /** null: made once and kept in the data folder (service.ts). */
  signingKey: string | null;
  ports: PortSettings;
  /** null: no SSH endpoint. */
  sshPort: number | null;
  sshLimits: SshLimits;
  /** null: the hostname (the driver's default). */
  node: string | null;
  /** BOXES_NODE_KEY: the agent's key where the boxes key is not held (node/node-key.ts). */
  nodeKey: string | undefined;
  secretsKey: SecretsKey;
  /** True when the public development key seals secrets (no key was configured). */
  developmentSecretsKey: boolean;
  /** Box calls one account may have in flight on this replica (domain/account-calls.ts). */
  accountCalls: number;
  /** The local driver's disks made ahead, per size. */
  warmPool: PoolSize[];
  /** Where the local driver keeps box images and snapshots. */
  diskStore: DiskStoreOptions;
  /** The enter helper built with the image (BOXES_ENTER_HELPER), or undefined: the driver builds it. */
  enterHelper: string | undefined;
  placement: PlacementSettings;
}

/** Caps on SSH connections (src/http/connection-gate.ts): a flood of idle ones must not run the service out of descriptors. */
export interface SshLimits {
  perAddress: number;
  unauthenticated: number;
  authTimeoutMs: number;
}

export interface BoxesConfigOptions {
  /** Over BOXES_ROLE. */
  role?: BoxesRole;
  hostMemoryMiB?: number;
  memoryReserveMiB?: number;
  hostCores?: number;
  vcpuOvercommit?: number;
  accountSharePercent?: number;
  diskOvercommit?: number;
  accountCalls?: number;
  uidBase?: number;
  uidCount?: number;
  /** Prices in reais as decimal text, over their variables. */
  prices?: Partial<PriceText>;
  publicUrl?: string;
  signingKey?: string;
  portRange?: { first: number; last: number };
  portsBindHost?: string;
  portsHost?: string;
  /** null: no SSH endpoint; 0: a free port. */
  sshPort?: number | null;
  /** Over their variables (tests lower them). */
  sshLimits?: Partial<SshLimits>;
  portConnections?: Partial<PortConnectionLimits>;
  /** The key sealing workspace secrets, over BOXES_SECRETS_KEY. */
  secretsKey?: string;
  /** This machine's name among the replicas, over BOXES_NODE. */
  node?: string;
  /** Over BOXES_WARM_POOL ([]: no pool). */
  warmPool?: PoolSize[];
  /** Over BOXES_DISK_STORE and BOXES_DISK_STORE_GIB. */
  diskStore?: DiskStoreOptions;
  /** Over BOXES_PLACEMENT, BOXES_NODE_LABELS and BOXES_TEMPLATE_LABELS. */
  placement?: Partial<PlacementSettings>;
}

export function boxesConfig(options: BoxesConfigOptions = {}, env: NodeJS.ProcessEnv = process.env): BoxesConfig {
  const read = (name: string, given: number | undefined, fallback: number, min: number): number => {
    if (given !== undefined) return given;
    const text = env[name];
    if (text === undefined || text === "") return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number ≥ ${min} (got '${text}')`);
    return value;
  };
  const hostMemMiB = read("BOXES_HOST_MEMORY_MIB", options.hostMemoryMiB, Math.floor(totalmem() / 1024 / 1024), 1);
  const reserveMiB = read("BOXES_MEMORY_RESERVE_MIB", options.memoryReserveMiB, 2048, 0);
  const cores = read("BOXES_HOST_CORES", options.hostCores, availableParallelism(), 1);
  const overcommit = read("BOXES_VCPU_OVERCOMMIT", options.vcpuOvercommit, 4, 1);
  const accountSharePercent = read("BOXES_ACCOUNT_SHARE", options.accountSharePercent, 50, 1);
  if (accountSharePercent > 100) throw new Error(`BOXES_ACCOUNT_SHARE must be a percent from 1 to 100 (got '${accountSharePercent}')`);
  const diskOvercommit = read("BOXES_DISK_OVERCOMMIT", options.diskOvercommit, 1, 0.1);
  const accountCalls = Math.floor(read("BOXES_ACCOUNT_CALLS", options.accountCalls, 32, 1));
  const base = Math.floor(read("BOXES_UID_BASE", options.uidBase, 100_000, 1000));
  const count = Math.floor(read("BOXES_UID_COUNT", options.uidCount, 1_000_000, 1));
  // Stored as a Postgres integer; Linux uids go further, but two billion boxes will do.
  if (base + count > 2 ** 31 - 1) throw new Error("BOXES_UID_BASE + BOXES_UID_COUNT must stay below 2147483647");
  const publicUrl = (options.publicUrl ?? env.BOXES_PUBLIC_URL ?? `http://${displayHost(env.HOST)}:${env.PORT || 8787}`).replace(
    /\/+$/,
    "",
  );
  if (!/^https?:\/\/[^/\s]+(\/\S*)?$/.test(publicUrl)) throw new Error(`BOXES_PUBLIC_URL must be an http(s) URL (got '${publicUrl}')`);
  const signingKey = options.signingKey ?? (env.BOXES_SIGNING_KEY || null);
  if (signingKey !== null && signingKey.length < 32) throw new Error("BOXES_SIGNING_KEY must be at least 32 characters");
  const range = options.portRange ?? portRange(env.BOXES_PORT_RANGE || "42000-42999");
  const ports: PortSettings = {
    range,
    bindHost: options.portsBindHost ?? (env.BOXES_PORTS_BIND || env.HOST || "127.0.0.1"),
    publicHost: options.portsHost ?? (env.BOXES_PORTS_HOST || new URL(publicUrl).hostname),
    connections: {
      perPort: read("BOXES_PORT_CONNECTIONS", options.portConnections?.perPort, 256, 1),
      perAddress: read("BOXES_PORT_CONNECTIONS_PER_IP", options.portConnections?.perAddress, 64, 1),
      total: read("BOXES_PORT_CONNECTIONS_TOTAL", options.portConnections?.total, 4096, 1),
      firstRequestMs: options.portConnections?.firstRequestMs ?? 10_000,
    },
  };
  const sshLimits: SshLimits = {
    perAddress: read("BOXES_SSH_CONNECTIONS_PER_IP", options.sshLimits?.perAddress, 64, 1),
    unauthenticated: read("BOXES_SSH_UNAUTHENTICATED", options.sshLimits?.unauthenticated, 512, 1),
    authTimeoutMs: read("BOXES_SSH_AUTH_TIMEOUT_MS", options.sshLimits?.authTimeoutMs, 10_000, 100),
  };
  const sshText = env.BOXES_SSH_PORT || "2222";
  const sshPort = options.sshPort !== undefined ? options.sshPort : sshText === "off" ? null : Number(sshText);
  if (sshPort !== null && !(Number.isInteger(sshPort) && sshPort >= 0 && sshPort <= 65_535))
    throw new Error(`BOXES_SSH_PORT must be a port (0-65535) or off (got '${sshText}')`);
  const role = options.role ?? (env.BOXES_ROLE || "all");
  if (!boxesRoles.includes(role as BoxesRole)) throw new Error(`BOXES_ROLE must be all, control or node (got '${role}')`);
  return {
    role: role as BoxesRole,
    sshPort,
    sshLimits,
    ports,
    publicUrl,
    signingKey,
    capacity: {
      memMiB: Math.max(0, hostMemMiB - reserveMiB),
      vcpus: Math.floor(cores * overcommit),
      hostMemMiB,
      reserveMiB,
      cores,
      overcommit,
      accountSharePercent,
      diskOvercommit,
    },
    accountCalls,
    warmPool: options.warmPool ?? warmPool(env.BOXES_WARM_POOL || "2"),
    diskStore: options.diskStore ?? diskStore(env),
    enterHelper: env.BOXES_ENTER_HELPER || undefined,
    uids: { base, count },
    prices: priceTable(options.prices ?? {}, env),
    node: nodeName(options.node ?? (env.BOXES_NODE || null)),
    nodeKey: env.BOXES_NODE_KEY || undefined,
    secretsKey: SecretsKey.from(options.secretsKey ?? (env.BOXES_SECRETS_KEY || developmentSecretsKey)),
    developmentSecretsKey: !options.secretsKey && !env.BOXES_SECRETS_KEY,
    placement: placementSettings(options.placement ?? {}, env),
  };
}

function placementSettings(given: Partial<PlacementSettings>, env: NodeJS.ProcessEnv): PlacementSettings {
  const policy = given.policy ?? (env.BOXES_PLACEMENT || "spread");
  if (policy !== "spread" && policy !== "pack") throw new Error(`BOXES_PLACEMENT must be spread or pack (got '${policy}')`);
  const list = (text: string | undefined) =>
    (text ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
  const templateLabels: Record<string, string[]> = {};
  for (const pair of list(env.BOXES_TEMPLATE_LABELS)) {
    const [template, label] = pair.split("=").map((part) => part.trim());
    if (!template || !label) throw new Error(`BOXES_TEMPLATE_LABELS must be template=label pairs (got '${pair}')`);
    (templateLabels[template] ??= []).push(label);
  }
  return {
    policy,
    nodeLabels: given.nodeLabels ?? list(env.BOXES_NODE_LABELS),
    templateLabels: given.templateLabels ?? templateLabels,
  };
}

/** The address a client dials for a bind address: a wildcard bind is reached on loopback from this machine. */
function displayHost(host: string | undefined): string {
  if (!host || host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

function portRange(text: string): { first: number; last: number } {
  const match = /^(\d{1,5})-(\d{1,5})$/.exec(text.trim());
  const first = Number(match?.[1]);
  const last = Number(match?.[2]);
  if (!match || first < 1 || last > 65_535 || first > last)
    throw new Error(`BOXES_PORT_RANGE must be first-last within 1-65535 (got '${text}')`);
  return { first, last };
}

/** "4": four disks of the smallest size; "20:4,50:1": four of 20 GiB and one of 50 GiB. */
function warmPool(text: string): PoolSize[] {
  const fail = () => new Error(`BOXES_WARM_POOL must be a count, or size:count pairs in GiB such as 20:4,50:1 (got '${text}')`);
  if (/^\d+$/.test(text.trim())) return [{ dataGiB: limits.dataGiBMin, count: Number(text) }];
  return text.split(",").map((pair) => {
    const match = /^\s*(\d+):(\d+)\s*$/.exec(pair);
    const dataGiB = Number(match?.[1]);
    if (!match || dataGiB < limits.dataGiBMin || dataGiB > limits.dataGiBMax) throw fail();
    return { dataGiB, count: Number(match[2]) };
  });
}

function diskStore(env: NodeJS.ProcessEnv): DiskStoreOptions {
  const mode = env.BOXES_DISK_STORE || "auto";
  if (mode !== "auto" && mode !== "off") throw new Error(`BOXES_DISK_STORE must be auto or off (got '${mode}')`);
  const size = env.BOXES_DISK_STORE_GIB;
  if (size === undefined || size === "") return { mode };
  if (!/^\d+$/.test(size) || Number(size) < 1) throw new Error(`BOXES_DISK_STORE_GIB must be a whole number of GiB ≥ 1 (got '${size}')`);
  return { mode, sizeGiB: Number(size) };
}

/** A node name goes into NATS subjects and logs: letters, digits, dot, underscore and hyphen, up to 63. */
function nodeName(name: string | null): string | null {
  if (name !== null && !/^[A-Za-z0-9._-]{1,63}$/.test(name))
    throw new Error(`BOXES_NODE must be letters, digits, '.', '_' or '-' (1–63; got '${name}')`);
  return name;
}
