/* eslint-disable @typescript-eslint/no-explicit-any */
import type { Manifest, Objects } from "./podman.mjs";
export interface Pod {
  name: string;
  workload: string;
  namespace: string;
  n: number;
  kind: "StatefulSet" | "Deployment";
  serviceName?: string;
  claimTemplates: Manifest[];
  spec: Record<string, any>;
  labels: Record<string, string>;
}
export function podmanMissing(): string | undefined;
export function render(overlay: string): Manifest[];
export function podsOf(objects: Objects): Pod[];
export function up(options: Record<string, unknown>): Promise<Record<string, unknown>>;
export function down(options: { dir: string; graceMs: number }): Promise<void>;
