/** The MCP client configuration for a key, ready to paste: `bancada start` prints it, the web console shows it. */
export function mcpClientConfiguration(mcpUrl: string, key: string): string {
  return JSON.stringify({ mcpServers: { bancada: { type: "http", url: mcpUrl, headers: { Authorization: `Bearer ${key}` } } } }, null, 2);
}

/** How an MCP client starts `bancada gateway --stdio` itself: the program, its arguments and the environment it needs. */
export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The same for a client that starts Bancada over stdio: the key goes in BANCADA_API_KEY. */
export function mcpStdioConfiguration(launch: StdioLaunch, key: string): string {
  const server = { type: "stdio", command: launch.command, args: launch.args, env: { ...launch.env, BANCADA_API_KEY: key } };
  return JSON.stringify({ mcpServers: { bancada: server } }, null, 2);
}
