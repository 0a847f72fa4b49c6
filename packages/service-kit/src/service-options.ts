import type { Subjects } from "@bancada/contracts";
import type { Bus } from "./bus/bus.js";
import type { Logger } from "./logger.js";
import type { ToolMetrics } from "./metrics.js";

/** What every service is started with, in one process or alone; each service's options add its own. */
export interface ServiceOptions {
  databaseUrl: string;
  bus: Bus;
  subjects: Subjects;
  log: Logger;
  metrics?: ToolMetrics;
  /** Connections in the service's pool (Prisma's default otherwise). */
  poolMax?: number;
}
