export { freshDatabase, adminDatabaseUrl } from "./database.js";
export type { TestDatabase } from "./database.js";
export { connectClient, callTool, abandonableCall } from "./mcp-client.js";
export type { ToolOutcome, ErrorData } from "./mcp-client.js";
export { expectToolResult, expectToolError, expectRestError, issuePaths } from "./tool-results.js";
export type { ErrorBody } from "./tool-results.js";
export { seededRandom } from "./seeded-random.js";
export { startNatsServer, freePort, portAccepts, natsServerBin, natsServerPresent } from "./nats-server.js";
export type { TestNatsServer } from "./nats-server.js";
