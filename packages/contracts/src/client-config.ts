/** The MCP client configuration for a key, ready to paste: `bancada start` prints it, the web console shows it. */
export function mcpClientConfiguration(mcpUrl: string, key: string): string {
  return JSON.stringify({ mcpServers: { bancada: { type: "http", url: mcpUrl, headers: { Authorization: `Bearer ${key}` } } } }, null, 2);
}
