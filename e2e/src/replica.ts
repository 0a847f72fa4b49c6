/**
 * Another replica of a service under test: a second instance on the stack's database and bus (so it shares the
 * service's queue group: either replica may answer a call), with its REST routes on a loopback port of its own,
 * as a second process behind a load balancer would be. For tests that a request served by one replica sees what
 * another one wrote.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { Router } from "express";
import { busKeyResolver, createLogger, createServiceApp } from "@bancada/service-kit";
import type { ServiceDeps, Stack } from "./stack.js";

export interface Replica {
  /** Its REST app, e.g. `http://127.0.0.1:41234` (paths as at the gateway: `/v1/...`). */
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startReplica(
  stack: Stack,
  service: string,
  start: (deps: ServiceDeps) => Promise<{ routes: Router; stop(): Promise<void> }>,
): Promise<Replica> {
  const log = createLogger(`${service}-replica`, (process.env.LOG_LEVEL as "info" | undefined) ?? "silent");
  const running = await start({ databaseUrl: stack.database.url, bus: stack.bus, subjects: stack.subjects, log });
  const app = createServiceApp({
    routes: [running.routes],
    resolver: busKeyResolver(stack.bus, stack.subjects, service, 500, log),
    log,
    guards: { bindHost: "127.0.0.1", allowedHosts: [], allowedOrigins: [] },
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
    listening.once("error", reject);
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await running.stop();
    },
  };
}
