/* eslint-disable @typescript-eslint/no-explicit-any */
export type Manifest = Record<string, any>;
export interface Objects {
  get(kind: string, name: string): Manifest | undefined;
  all(kind: string): Manifest[];
}
export interface PodInfo {
  name: string;
  namespace: string;
  ip?: string;
  hostIp: string;
  network: string;
  hosts?: [string, string][];
  labels?: Record<string, string>;
  cores: number;
}
export type Mount = { type: "tmpfs"; size?: number } | { type: "bind"; source: string; readOnly?: boolean };
export interface Probe {
  kind: "http" | "tcp" | "exec";
  url?: string;
  host?: string;
  port?: number;
  command?: string[];
  periodMs: number;
  failureThreshold: number;
  timeoutMs: number;
  initialDelayMs: number;
}
export function indexObjects(docs: Manifest[]): Objects;
export function dataOf(object: Manifest): Record<string, string>;
export function quantity(value: string | number): number;
export function resolveEnv(container: Manifest, context: { objects: Objects; pod: PodInfo }): Record<string, string>;
export function volumeFiles(volume: Manifest, objects: Objects): { path: string; content: string; mode: number }[];
export function userOf(container: Manifest, podSpec: Manifest): string | undefined;
export function probeOf(probe: Manifest | undefined, container: Manifest, ip: string): Probe | undefined;
export function runArgs(
  container: Manifest,
  podSpec: Manifest,
  options: { objects: Objects; pod: PodInfo; mounts: Record<string, Mount>; image: string; name: string; env?: Record<string, string> },
): { args: string[]; env: Record<string, string> };
