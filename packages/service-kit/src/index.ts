export { BusFailure, BusRequestError, encodeJson, decodeJson } from "./bus/bus.js";
export type { AdmitBody, Bus, BusMessage, BusHandler, BusListener, BusSubscription, RequestOptions, ServeOptions } from "./bus/bus.js";
export { MemoryBus } from "./bus/memory-bus.js";
export { NatsAuthError, NatsBus, connectNatsBus, natsReconnect, natsServers, natsTlsSettings } from "./bus/nats-bus.js";
export { natsLiveness } from "./bus/nats-requests.js";
export { maxBusBodyBytes, maxBodyParts } from "./bus/nats-parts.js";
export type { NatsLiveness } from "./bus/nats-requests.js";
export { BusMetrics } from "./bus/bus-metrics.js";
export { BusKey, BusKeys, BusKeyError, gatewayKeyScope } from "./bus/bus-keys.js";
export type { BusKeySource } from "./bus/bus-keys.js";
export {
  signBusMessage,
  checkBusSignature,
  checkBusAnnouncement,
  signReply,
  checkReply,
  admitsReply,
  refusedCall,
  bodyDigest,
  ReplayGuard,
  signatureLifetimeMs,
  maxClockSkewMs,
} from "./bus/bus-signature.js";
export type { SignOptions, SignatureProblem } from "./bus/bus-signature.js";
export type { NatsBusLog, NatsBusOptions, NatsTlsFiles } from "./bus/nats-bus.js";
export { defineTool, describeTool } from "./define-tool.js";
export type { Tool, ToolContext, ToolDefinition } from "./define-tool.js";
export { hostTools, maxReplyBytes } from "./tool-host.js";
export { withCommonVerbs } from "./common-verbs.js";
export { envFlag, envList } from "./env-values.js";
export { clientDialog } from "./client-dialog.js";
export { defineResource, describeResource, maxCompletionValues } from "./define-resource.js";
export type { Completer, Completion, ResourceDefinition, ResourcePage } from "./define-resource.js";
export type { ToolHost, ToolHostOptions, PromptDefinition } from "./tool-host.js";
export { toErrorBody } from "./error-body.js";
export { createLogger } from "./logger.js";
export { makeOwnFolder } from "./folders.js";
export { descriptorPressure, descriptorUse, raiseDescriptorLimit } from "./descriptors.js";
export type { DescriptorUse } from "./descriptors.js";
export type { Logger, LogFormat } from "./logger.js";
export { createToolMetrics } from "./metrics.js";
export type { ToolMetrics } from "./metrics.js";
export { busKeyResolver, apiKeyDigest, serviceKeyCacheMs } from "./key-resolver.js";
export type { KeyResolver, AuthResolveRequest, AuthResolveReply } from "./key-resolver.js";
export { hostGuard, originGuard, isLoopback } from "./http-guards.js";
export type { GuardOptions } from "./http-guards.js";
export { requestLog } from "./request-log.js";
export { utf8BodyGuard } from "./body-charset.js";
export { traceIdOf, newTraceparent } from "./trace-context.js";
export {
  SpanKind,
  activeTraceId,
  activeTraceparent,
  busSpanAttributes,
  callParent,
  setOutcome,
  startTelemetry,
  withSpan,
} from "./telemetry.js";
export type { OtlpProtocol, Span, SpanOptions, Telemetry, TelemetryOptions } from "./telemetry.js";
export {
  authenticate,
  maybePrincipalOf,
  principalOf,
  authorizedPrincipal,
  restErrorHandler,
  notFoundRoute,
  jsonBody,
  bearerToken,
  noteErrorCode,
} from "./rest.js";
export { applyMigrations, quoteIdent } from "./migrations.js";
export type { MigrationTarget } from "./migrations.js";
export { createServiceApp } from "./service-app.js";
export type { ServiceAppOptions } from "./service-app.js";
export { transactionOptions, createPrismaClient } from "./db.js";
export type { PrismaClientClass, PgAdapterClass, PrismaClientTarget } from "./db.js";
export { defineService } from "./define-service.js";
export type { ServiceDeclaration, ServiceDefinition, ServiceScope, ServiceDb, RunningService, JobDeclaration } from "./define-service.js";
export type { ServiceOptions } from "./service-options.js";
export { claimIdempotencyKey, idempotentWrite } from "./idempotency.js";
export type { IdempotencyClaim, IdempotencyRecord, IdempotencyRecords, IdempotentWrite } from "./idempotency.js";
export { startPeriodicJob } from "./periodic-job.js";
export type { PeriodicJob } from "./periodic-job.js";
export { RateLimiter } from "./rate-limit.js";
export type { RateLimitOptions } from "./rate-limit.js";
export { requestPathGuard } from "./request-path.js";
export { metricsRoute, metricsPath } from "./metrics-route.js";
export type { MetricsAccess } from "./metrics-route.js";
export { bodyTimeout, createLimitedServer, defaultBodyTimeoutMs, defaultServerLimits } from "./http-limits.js";
export type { ServerLimits } from "./http-limits.js";
export { restRoutes, mountRoutes, declaredRoutes, routeMethods } from "./rest-routes.js";
export type { RestRoutes, RouteDeclaration, DeclaredRoute, RouteCaller, RouteMethod } from "./rest-routes.js";
export { routeTable } from "./route-table.js";
export type { RouteEntry, RouteSource } from "./route-table.js";
export { openApiDocument, openApiRoute, openApiPath, openApiPathOf, openApiDeclaration } from "./openapi.js";
export type { OpenApiInfo } from "./openapi.js";
