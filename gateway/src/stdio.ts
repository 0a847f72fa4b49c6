/** The stdio transport: one Server for the key in BANCADA_API_KEY; tool-list changes are pushed to the client. */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Profile } from "@bancada/contracts";
import type { Gateway } from "./gateway.js";
import { createMcpServer } from "./mcp/server.js";
import { gatewayVersion } from "./gateway.js";

export async function serveStdio(gateway: Gateway, apiKey: string, profile: Profile = "full"): Promise<{ close(): Promise<void> }> {
  const principal = await gateway.keys.resolve(apiKey, profile);
  if (!principal) throw new Error("BANCADA_API_KEY is unknown, revoked or expired: create a key with 'pnpm bancada keys create'.");
  const server = createMcpServer(
    { catalog: gateway.catalog, router: gateway.router, outputSchemas: gateway.outputSchemas, version: gatewayVersion },
    principal,
    "stdio",
  );
  const unsubscribe = gateway.catalog.onChange(() => void server.sendToolListChanged().catch(() => {}));
  await server.connect(new StdioServerTransport());
  return {
    async close() {
      unsubscribe();
      await server.close();
    },
  };
}
