export { freshDatabase, adminDatabaseUrl } from "./database.js";
export type { TestDatabase } from "./database.js";
export { startStack, testBus, natsUrl, captureLogs, callServiceOverBus } from "./stack.js";
export type { Stack, StackOptions, StackService, ServiceFactory, ServiceDeps } from "./stack.js";
export { connectClient, callTool, abandonableCall } from "./mcp-client.js";
export type { ToolOutcome, ErrorData } from "./mcp-client.js";
export { expectToolResult, expectToolError, expectRestError, issuePaths } from "./tool-results.js";
export type { ErrorBody } from "./tool-results.js";
export { seededRandom } from "./seeded-random.js";
