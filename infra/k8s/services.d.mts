import type { RegisteredService } from "@bancada/service-registry";

type Placed = Pick<RegisteredService, "name" | "port">;
export interface SharedFiles {
  kustomization: string;
  config: string;
  devOverlay: string;
  prodOverlay: string;
}
export const k8sDir: string;
export const sharedFiles: Record<keyof SharedFiles, string>;
export function serviceManifest(service: Placed, template?: string): string;
export function addService(files: SharedFiles, service: Placed, services?: Placed[]): SharedFiles;
export function missingPieces(files: SharedFiles, service: Placed, manifestExists: boolean): string[];
export function readSharedFiles(dir?: string): SharedFiles;
export function writeService(name: string, options?: { dir?: string; services?: RegisteredService[] }): string[];
