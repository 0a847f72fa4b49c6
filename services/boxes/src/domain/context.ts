import type { Logger } from "@bancada/service-kit";
import type { BoxesRole, HostCapacity, PlacementSettings, UidRange } from "./host-settings.js";
import type { BoxesDb } from "../db/client.js";
import type { BoxDriver } from "../driver/box-driver.js";
import type { AccountCalls } from "./account-calls.js";
import type { Background } from "./background.js";
import type { BoxSuspensions } from "./suspensions.js";
import type { PlanName } from "./plans.js";
import type { SecretsKey } from "./secrets/sealing.js";
import type { PriceTable } from "./usage/prices.js";
import type { TransferSettings } from "./transfers/settings.js";
import type { RunningOperations } from "./running-operations.js";
import type { PortListeners } from "./ports/port-listeners.js";
import type { PortSettings } from "./ports/port-settings.js";
import type { SshSettings } from "./ssh/ssh-settings.js";
import type { NodeDrivers } from "../node/node-drivers.js";

/** What every use case of this service instance shares. */
export interface BoxesRuntime {
  db: BoxesDb;
  /** What this process runs (BOXES_ROLE): a control-plane-only replica's driver is one that runs nothing. */
  role: BoxesRole;
  driver: BoxDriver;
  log: Logger;
  /** This service process: operations it starts carry it, so a restarted service can tell them apart. */
  instance: string;
  background: Background;
  /** Work a delete_box may cancel (creating, forking, snapshotting), by box. */
  operations: RunningOperations;
  /** The most bytes one answer may carry (service-kit's maxReplyBytes minus the envelope). */
  replyBudgetBytes: number;
  defaultPlan: PlanName;
  /** What this machine may hold in boxes (host admission). */
  capacity: HostCapacity;
  /** How create_box picks a node, and this node's labels (placement.ts). */
  placement: PlacementSettings;
  /** The host uids boxes run as. */
  uids: UidRange;
  /** Seals and opens workspace secrets (AES-256-GCM, config.ts). */
  secretsKey: SecretsKey;
  /** The price table of usage and box costs (config.ts). */
  prices: PriceTable;
  /** The clock state changes and usage are stamped and counted by (tests move it to simulate a month). */
  now: () => Date;
  /** Transfer URLs: public address, signing key, clock, limits. */
  transfers: TransferSettings;
  /** Published ports: where they are served (the proxy) and on which host ports. */
  ports: PortListeners;
  portSettings: PortSettings;
  /** The SSH endpoint (port null until it listens, or when it is off). */
  ssh: SshSettings;
  /** Box work in flight per account on this replica, capped (account-calls.ts). */
  accountCalls: AccountCalls;
  /** The calls running in each box, told when this process freezes it (suspensions.ts). */
  suspensions: BoxSuspensions;
  /** A small pool of its own for the reapers and the watcher, which no burst of calls can take from them. */
  housekeepingDb: BoxesDb;
  /** This node's agent, and the drivers of the other nodes over their agents (node/node-drivers.ts). */
  nodes: NodeDrivers;
  /** Calls waiting right now (exec, job_wait), for tests and metrics. */
  inFlight: { exec: number; jobWait: number };
}

/** A use case's context: the runtime and who acts. Every query is scoped by `accountId`. */
export interface BoxesContext extends BoxesRuntime {
  accountId: string;
  personId: string;
  agentId: string;
  /** create_box from a snapshot of another node: where this node reads the snapshot's files (snapshot-copy.ts). */
  snapshotSource?: string;
}
