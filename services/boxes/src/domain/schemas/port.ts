/** publish_port: its input, a published port as shown, and the REST list / unpublish. */
import { z } from "zod";
import { boxRef, isoDate } from "./common.js";

const portNumber = z.number().int().min(1).max(65_535);

export const publishPortInput = z.strictObject({
  boxId: boxRef,
  port: portNumber.describe("Port in the box (1–65535)."),
  protocol: z.enum(["http", "tcp"]).default("http").describe("http (default) or tcp."),
  visibility: z
    .enum(["private", "public"])
    .default("private")
    .describe("private (default): needs the accessToken; public: open to anyone."),
});
export type PublishPortInput = z.infer<typeof publishPortInput>;

const portView = z.object({
  id: z.string().describe("Id of the published port (pt_…)."),
  boxId: z.string(),
  port: z.number().int(),
  protocol: z.enum(["http", "tcp"]),
  visibility: z.enum(["private", "public"]),
  url: z.string().describe("http://host:port/ for http, tcp://host:port for tcp."),
  host: z.string(),
  hostPort: z.number().int(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type PortView = z.infer<typeof portView>;

export const publishPortResult = z.object({
  port: portView,
  accessToken: z
    .string()
    .nullable()
    .describe(
      "Private ports only, shown this once (only its hash is kept): send it as 'Authorization: Bearer <token>', or open the URL once with " +
        "?accessToken=<token> in a browser (a cookie keeps it); for tcp, send it as the first line. Publishing again makes a new one.",
    ),
  usage: z.string().describe("How to reach the port."),
});
export type PublishPortResult = z.infer<typeof publishPortResult>;

/** The REST list of a box's published ports (GET /v1/boxes/:boxId/ports). */
export const listPortsResult = z.object({ ports: z.array(portView) });

export const unpublishPortInput = z.strictObject({ boxId: boxRef, port: portNumber });
