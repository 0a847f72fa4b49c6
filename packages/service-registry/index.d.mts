export interface RegisteredService {
  name: string;
  /** Its REST port when it runs in its own process. */
  port: number;
  /** The prefixes of its REST paths. */
  paths: string[];
  /** The scopes it owns (`<domain>:<action>`); no other service declares them. */
  scopes?: string[];
  bus: {
    /** Subjects under `<root>.<name>.` it publishes to, beyond every service's. */
    publishes: string[];
    /** Its replicas forward calls to the node that owns what they act on. */
    nodeRouted: boolean;
  };
}
export const servicesDir: string;
export function registeredServices(dir?: string): RegisteredService[];
export function registeredScopes(dir?: string): string[];
export function registeredServiceNames(dir?: string): string[];
export function parseDeclaration(name: string, manifest: { name?: string; bancada?: unknown }, file?: string): RegisteredService;
