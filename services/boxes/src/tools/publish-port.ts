import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { publishPort } from "../domain/ports/publish-port.js";
import { publishPortInput, publishPortResult } from "../domain/schemas/port.js";
import { onBox, createsOrChanges } from "./context.js";

export const publishPortTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "publish_port",
    title: "Publish a port",
    description:
      "Publishes a port of the box (a server listening on 127.0.0.1 or 0.0.0.0 in the box) at a URL of its own, through the service's proxy: " +
      "http (default; WebSockets pass) or tcp. private (default) needs the accessToken returned now (shown only this once); public is open to anyone. " +
      "Publishing the same port again keeps its URL and makes a new token. A request to it wakes a sleeping box; delete_box unpublishes it.",
    input: publishPortInput,
    output: publishPortResult,
    annotations: createsOrChanges(false),
    scope: "boxes:write",
    profile: "core",
    handler: async (ctx, input) => publishPort(await onBox(rt, ctx, input.boxId), input),
  });
