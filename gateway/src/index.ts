export { createGateway, migrateGateway, gatewayVersion, migrationsDir } from "./gateway.js";
export type { Gateway, GatewayOptions } from "./gateway.js";
export { serveStdio, refuseStdio, StdioRefusal, stdioRefusedCode, unknownKeyMessage } from "./stdio.js";
export { bridgeStdio } from "./stdio-bridge.js";
export { KeyStore } from "./keys/api-keys.js";
export type { CreateKeyInput, KeyRecord } from "./keys/api-keys.js";
export { createGatewayDb } from "./db/client.js";
export { readAudit, parseSince, auditPageMax } from "./audit-query.js";
export type { AuditCall, AuditPage, AuditFilter } from "./audit-query.js";
