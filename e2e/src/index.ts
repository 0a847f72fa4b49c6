// The full-stack harness (services and the gateway on a real bus and database), with testkit's helpers beside it.
export * from "@bancada/testkit";
export { startStack, testBus, natsUrl, captureLogs, callServiceOverBus } from "./stack.js";
export type { Stack, StackOptions, StackService, ServiceFactory, ServiceDeps } from "./stack.js";
export { startReplica, type Replica } from "./replica.js";
