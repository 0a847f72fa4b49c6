export {
  ErrorCode,
  errorCodes,
  httpStatusOf,
  errorBody,
  errorEnvelope,
  DomainError,
  invalidArgument,
  fromZodError,
  formatPath,
  sizeLimitThreshold,
} from "./errors.js";
export type { ErrorBody, ErrorEnvelope, ValidationIssue } from "./errors.js";
export { Profile, principalSchema, Transport } from "./principal.js";
export type { Principal } from "./principal.js";
export { noScope } from "./scopes.js";
export type { Scope, ToolScope } from "./scopes.js";
export { authorize, permits, restAccess } from "./authorize.js";
export type { Access, Authorization, RouteAccess, Surface, ToolAccess } from "./authorize.js";
export { subjects, Header } from "./subjects.js";
export type { Subjects } from "./subjects.js";
export {
  toolAnnotations,
  toolDescriptor,
  promptDescriptor,
  resourceDescriptor,
  serviceCatalog,
  callRequest,
  completionTarget,
  contentBlock,
  resourceContents,
  listedResource,
  vocabulary,
  logLevels,
} from "./catalog.js";
export { matchUriTemplate, templateVariables } from "./uri-template.js";
export type {
  ToolAnnotations,
  ToolDescriptor,
  ToolConfirmation,
  PromptDescriptor,
  ResourceDescriptor,
  ServiceCatalog,
  CompletionTarget,
  ContentBlock,
  ResourceContents,
  ListedResource,
  CallRequest,
  CallReply,
  ProgressUpdate,
  Vocabulary,
  ClientQuestion,
  ClientSide,
  ClientLog,
  LogLevel,
} from "./catalog.js";
export { mcpClientConfiguration, mcpStdioConfiguration } from "./client-config.js";
export type { StdioLaunch } from "./client-config.js";
