/**
 * The settings of this node that the domain reads (placement, host admission, box uids). They are the domain's
 * own shapes: config.ts fills them from the environment, and nothing in the domain imports the config module.
 */

/** How create_box picks a node (placement.ts). */
export interface PlacementSettings {
  /** spread: the node with the most room left; pack: the fullest node that still fits. */
  policy: "spread" | "pack";
  /** This node's labels. */
  nodeLabels: string[];
  /** The labels a template's boxes need on their node, by template name. */
  templateLabels: Record<string, string[]>;
}

/** What this machine may hold in boxes, all accounts together (host admission, see capacity.ts). */
export interface HostCapacity {
  /** MiB of memory for boxes: the machine's memory minus the reserve. */
  memMiB: number;
  /** vCPUs for boxes: cores × overcommit. */
  vcpus: number;
  /** How the numbers were made, for error messages. */
  hostMemMiB: number;
  reserveMiB: number;
  cores: number;
  overcommit: number;
  /** The most one account may hold of `memMiB` and `vcpus`, in percent. */
  accountSharePercent: number;
  /** GiB of box disks promised per GiB free in the data folder. */
  diskOvercommit: number;
}

/** Box n (1, 2, …) runs as host uid base + n − 1; n past count is refused. */
export interface UidRange {
  base: number;
  count: number;
}

/** What a boxes process runs (BOXES_ROLE): both parts, the control plane only, or a node agent only. */
export type BoxesRole = "all" | "control" | "node";
export const boxesRoles: readonly BoxesRole[] = ["all", "control", "node"];
