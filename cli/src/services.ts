/** The services this build contains, and how to start each one. */
import type { Router } from "express";
import type { Subjects } from "@bancada/contracts";
import type { Bus, Logger, ToolMetrics } from "@bancada/service-kit";
import { createBoardsService, migrationsDir as boardsMigrations } from "@bancada/boards";
import { createScriptsService, migrationsDir as scriptsMigrations } from "@bancada/scripts";
import { migrationsDir as gatewayMigrations } from "@bancada/gateway";

export interface RunningService {
  name: string;
  routes: Router;
  stop(): Promise<void>;
}

export interface ServiceDeps {
  databaseUrl: string;
  bus: Bus;
  subjects: Subjects;
  log: Logger;
  metrics: ToolMetrics;
}

export const serviceRegistry: Record<string, (deps: ServiceDeps) => Promise<RunningService>> = {
  scripts: (deps) => createScriptsService(deps),
  boards: (deps) => createBoardsService(deps),
};

export const serviceNames = Object.keys(serviceRegistry);

/** Every component's Postgres schema and committed Prisma migrations. */
export const migrationSets = [
  { component: "gateway", schema: "gateway", dir: gatewayMigrations },
  { component: "scripts", schema: "scripts", dir: scriptsMigrations },
  { component: "boards", schema: "boards", dir: boardsMigrations },
] as const;
