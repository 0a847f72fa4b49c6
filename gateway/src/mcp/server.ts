/**
 * One low-level MCP `Server` for one caller (docs/gateway.md#transports): created per HTTP request in
 * stateless mode, once per process on stdio. The catalog's JSON Schemas pass through untouched.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
  type CallToolResult,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import { DomainError, permits, type Principal, type ProgressUpdate, type Transport } from "@bancada/contracts";
import type { CallRouter } from "../call-router.js";
import type { Catalog } from "../catalog.js";
import { isListed } from "../visibility.js";

export interface McpServerOptions {
  catalog: Catalog;
  router: CallRouter;
  /** Advertise output schemas (SOSOAPI_OUTPUT_SCHEMAS=1, docs/gateway.md#catalog). */
  outputSchemas: boolean;
  version: string;
}

/** One validator for every per-request Server: a new Ajv per request costs ~0.5 ms of CPU (bench/README.md). */
const sharedValidator = new AjvJsonSchemaValidator();

export function createMcpServer(options: McpServerOptions, principal: Principal, transport: Transport): Server {
  const { catalog, router } = options;
  const server = new Server(
    { name: "bancada", title: "Bancada", version: options.version },
    {
      capabilities: { tools: { listChanged: transport === "stdio" }, prompts: {}, logging: {} },
      instructions: catalog.instructions(),
      jsonSchemaValidator: sharedValidator,
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: catalog
      .tools()
      .filter((tool) => isListed(tool.descriptor, principal, transport))
      .map(({ descriptor }): McpTool => ({
        name: descriptor.name,
        ...(descriptor.title ? { title: descriptor.title } : {}),
        description: descriptor.description,
        inputSchema: descriptor.inputSchema as McpTool["inputSchema"],
        ...(options.outputSchemas && descriptor.outputSchema ? { outputSchema: descriptor.outputSchema as McpTool["outputSchema"] } : {}),
        annotations: descriptor.annotations,
      })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const traceparent = headerOf(extra.requestInfo?.headers, "traceparent");
    const progressToken = request.params._meta?.progressToken;
    const reply = await router.callTool(principal, request.params.name, request.params.arguments, {
      transport,
      signal: extra.signal,
      requestId: extra.requestId,
      ...(progressToken !== undefined
        ? {
            onProgress: (update: ProgressUpdate) =>
              void extra.sendNotification({ method: "notifications/progress", params: { progressToken, ...update } }).catch(() => {}),
          }
        : {}),
      ...(traceparent ? { traceparent } : {}),
    });
    if (reply.ok) {
      const result = reply.result as Record<string, unknown>;
      return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
    }
    const error = { error: reply.error };
    // The error object goes in both places, except where an output schema is advertised: MCP clients check
    // structuredContent against it even on errors (the TS SDK answers -32602 instead of the error), so there
    // the envelope travels as the text alone, which every client shows.
    const schemaAdvertised = options.outputSchemas && catalog.tool(request.params.name)?.descriptor.outputSchema !== undefined;
    return {
      content: [{ type: "text", text: JSON.stringify(error) }],
      ...(schemaAdvertised ? {} : { structuredContent: error }),
      isError: true,
    };
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: catalog
      .prompts()
      // A prompt only reads (it guides the agent to tools that are checked on their own), so its scope is all it needs.
      .filter(({ descriptor }) => !descriptor.scope || permits({ scope: descriptor.scope, writes: false }, principal, transport))
      .map(({ descriptor: { scope: _scope, ...prompt } }) => prompt),
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const reply = await router.getPrompt(principal, request.params.name, request.params.arguments ?? {}, {
      transport,
      signal: extra.signal,
    });
    if (!reply.ok) throw DomainError.fromBody(reply.error);
    return reply.result as { messages: [] };
  });

  server.setRequestHandler(SetLevelRequestSchema, () => ({}));
  // Stateless HTTP: the cancellation arrives in its own POST, on a Server that never saw the call.
  server.setNotificationHandler(CancelledNotificationSchema, (notification) => {
    if (notification.params.requestId !== undefined) router.cancelClientRequest(principal, notification.params.requestId);
  });
  return server;
}

function headerOf(headers: Record<string, string | string[] | undefined> | undefined, name: string): string | undefined {
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}
