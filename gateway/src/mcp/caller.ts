/** Who calls the gateway's MCP surface: what the transports hand to the server and its answers. */
import type { Principal, Transport } from "@bancada/contracts";

/** What a client sees: `core`/`full` narrow tools/list; `search` lists only search_tools and call_tool. */
export type View = "core" | "full" | "search";

/** Who is asking, from where, with which view: fixed for a stdio process, from the key per HTTP request. */
export interface Caller {
  principal: Principal;
  view: View;
  transport: Transport;
  /** A stdio client carried over HTTP by `bancada gateway --stdio` beside a running start: no notification reaches it. */
  bridged?: boolean;
  /** The request carried an OAuth access token (a grant), not an API key. */
  oauth?: boolean;
}
