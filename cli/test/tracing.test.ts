/**
 * OpenTelemetry across processes: `start --only gateway` and `start --only scripts` export to an OTLP/HTTP
 * receiver started here, one over http/json and the other over http/protobuf (then the other way round),
 * and one `tools/call get_script` is one trace — the gateway's HTTP span, the tool call, the bus request,
 * the service's handler and its SQL — whose links cross NATS in the request's `traceparent`.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import protobuf from "protobufjs";
import { BusKeys } from "@bancada/service-kit";
import { callTool, connectClient, freshDatabase, type TestDatabase } from "@bancada/testkit";
import { loadEnv } from "../src/env.js";
import { eventually, launch, stop } from "./start-bancada.js";

const natsUrl = process.env.NATS_URL;
const adminToken = randomBytes(24).toString("hex");

interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's enum: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
}

const kind = { internal: 1, server: 2, client: 3 } as const;

describe("tracing configuration", () => {
  it("when the OTLP protocol is grpc or unknown, then the configuration is refused naming the two it exports over", () => {
    for (const variable of ["OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"])
      for (const value of ["grpc", "http"])
        expect(() => loadEnv({ [variable]: value })).toThrow(`${variable}: must be http/protobuf (the default) or http/json`);
    expect(() => loadEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "not a url" })).toThrow("OTEL_EXPORTER_OTLP_ENDPOINT");
    expect(loadEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toMatchObject({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    });
  });
});

describe.skipIf(!natsUrl)("traces over OTLP (skipped without NATS_URL: the two processes meet over NATS)", { timeout: 300_000 }, () => {
  let database: TestDatabase;
  let receiver: Receiver;
  beforeAll(async () => {
    database = await freshDatabase("bancada_tracing");
    receiver = await startReceiver();
  });
  afterAll(async () => {
    receiver?.server.close();
    await database?.drop();
  });

  // the bundle (cli/dist, when fresh) and the sources load pg and the SDK differently: both are traced
  for (const [gatewayProtocol, scriptsProtocol, fromSource] of [
    ["http/json", "http/protobuf", "0"],
    ["http/protobuf", "http/json", "1"],
  ] as const) {
    it(`when the gateway exports over ${gatewayProtocol} and the scripts service over ${scriptsProtocol}${fromSource === "1" ? ", both from the sources" : ""}, then one get_script call is one trace from the HTTP span to the SQL`, async () => {
      receiver.reset();
      const master = BusKeys.generate();
      const env = {
        ...process.env,
        DATABASE_URL: database.url,
        NATS_URL: natsUrl,
        BANCADA_SUBJECT_ROOT: `otel_${randomBytes(4).toString("hex")}`,
        BANCADA_KEY_PEPPER: randomBytes(16).toString("hex"),
        LOG_LEVEL: "info",
        BANCADA_FROM_SOURCE: fromSource,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        // spans leave at once instead of every 5 s
        OTEL_BSP_SCHEDULE_DELAY: "50",
      };
      const scripts = launch(["start", "--only", "scripts"], {
        ...env,
        SCRIPTS_PORT: "0",
        BANCADA_BUS_VERIFY_KEY: master.only(["scripts"]).export().verifyKey!,
        OTEL_EXPORTER_OTLP_PROTOCOL: scriptsProtocol,
      });
      const gateway = launch(["start", "--only", "gateway"], {
        ...env,
        PORT: "0",
        BANCADA_ADMIN_TOKEN: adminToken,
        BANCADA_BUS_SIGNING_KEY: master.export().signingKey!,
        OTEL_EXPORTER_OTLP_PROTOCOL: gatewayProtocol,
      });
      try {
        await scripts.waitFor(/"msg":"tools served on the bus"/);
        const [, mcpUrl] = await gateway.waitFor(/MCP endpoint: (\S+)/);
        const key = await createKey(mcpUrl!.replace(/\/mcp$/, ""));
        const client = await connectClient(mcpUrl!, key);
        // the gateway learns of the scripts tools when the service announces its catalog
        const created = await eventually(async () => {
          const outcome = await callTool<{ script: { id: string } }>(client, "create_script", { title: "traced", text: "hi" });
          if (outcome.isError) throw new Error(outcome.text);
          return outcome;
        });
        const read = await callTool(client, "get_script", { id: created.data.script.id });
        expect(read.isError).toBe(false);
        await client.close();

        const spans = await eventually(() => {
          const all = receiver.spans();
          const call = all.find((span) => span.name === "tools/call get_script");
          const trace = call ? all.filter((span) => span.traceId === call.traceId) : [];
          if (!trace.some((span) => span.service === "scripts" && isSql(span)))
            throw new Error(`the trace's SQL spans have not arrived yet: ${summary(all)}`);
          return trace;
        });
        const byId = new Map(spans.map((span) => [span.spanId, span]));
        const parentOf = (span: ExportedSpan) => byId.get(span.parentSpanId);

        const call = spans.find((span) => span.name === "tools/call get_script")!;
        expect(call).toMatchObject({ service: "gateway", kind: kind.internal });
        expect(call.attributes).toMatchObject({ "bancada.tool": "get_script", "bancada.outcome": "ok", "bancada.transport": "http" });
        expect(call.attributes["bancada.key_id"]).toEqual(expect.any(String));
        // never the arguments
        expect(JSON.stringify(spans)).not.toContain(created.data.script.id);

        const httpSpan = parentOf(call)!;
        expect(httpSpan).toMatchObject({ service: "gateway", kind: kind.server, name: "POST /mcp" });
        expect(httpSpan.attributes["http.route"]).toBe("/mcp");
        expect(httpSpan.parentSpanId).toBe("");

        const send = spans.find((span) => span.kind === kind.client && span.parentSpanId === call.spanId)!;
        expect(send).toMatchObject({ service: "gateway", name: `send ${env.BANCADA_SUBJECT_ROOT}.scripts.call` });
        expect(send.attributes).toMatchObject({ "messaging.system": "nats", "bancada.outcome": "ok" });

        const handler = spans.find((span) => span.parentSpanId === send.spanId)!;
        expect(handler).toMatchObject({ service: "scripts", kind: kind.server, name: "scripts get_script" });
        expect(handler.attributes).toMatchObject({ "bancada.tool": "get_script", "bancada.service": "scripts", "bancada.outcome": "ok" });

        const sql = spans.filter((span) => span.service === "scripts" && isSql(span));
        expect(sql.length).toBeGreaterThan(0);
        for (const span of sql) expect(ancestors(span, parentOf)).toContain(handler);

        // the gateway's log line names the same trace
        expect(gateway.output()).toContain(`"tool":"get_script"`);
        const line = gateway
          .output()
          .split("\n")
          .find((text) => text.includes('"msg":"tool call"') && text.includes('"tool":"get_script"'))!;
        expect(JSON.parse(line)).toMatchObject({ traceId: call.traceId });

        expect(receiver.contentTypes()).toEqual(expect.arrayContaining(["application/json", "application/x-protobuf"]));
      } finally {
        expect(await stop(gateway.child)).toBe(0);
        expect(await stop(scripts.child)).toBe(0);
      }
    });
  }
});

function summary(spans: ExportedSpan[]): string {
  return spans
    .map(
      (span) =>
        `${span.service} ${span.kind} '${span.name}' ${span.traceId.slice(0, 6)}/${span.spanId.slice(0, 6)}<${span.parentSpanId.slice(0, 6)}`,
    )
    .join("; ");
}

function isSql(span: ExportedSpan): boolean {
  return span.attributes["db.system"] === "postgresql" || span.attributes["db.system.name"] === "postgresql";
}

function ancestors(span: ExportedSpan, parentOf: (span: ExportedSpan) => ExportedSpan | undefined): ExportedSpan[] {
  const found: ExportedSpan[] = [];
  for (let parent = parentOf(span); parent; parent = parentOf(parent)) found.push(parent);
  return found;
}

async function createKey(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/admin/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({
      accountId: "acct-otel",
      personId: "p",
      agentId: "a",
      scopes: ["scripts:read", "scripts:write"],
      allowWrites: true,
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

interface Receiver {
  server: Server;
  url: string;
  spans(): ExportedSpan[];
  contentTypes(): string[];
  reset(): void;
}

/** An OTLP/HTTP collector of one route: POST /v1/traces, in JSON or protobuf, kept in memory. */
async function startReceiver(): Promise<Receiver> {
  const request = otlpProto.lookupType("ExportTraceServiceRequest");
  const spans: ExportedSpan[] = [];
  const contentTypes = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const type = req.headers["content-type"] ?? "";
      if (req.method !== "POST" || req.url !== "/v1/traces") return void res.writeHead(404).end();
      contentTypes.add(type);
      if (type === "application/json") {
        spans.push(...flatten(JSON.parse(body.toString()) as OtlpRequest, (id) => (typeof id === "string" ? id : "")));
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      } else {
        const decoded = request.toObject(request.decode(body), { longs: String, defaults: true }) as OtlpRequest;
        spans.push(...flatten(decoded, (id) => Buffer.from((id as Uint8Array | undefined) ?? []).toString("hex")));
        res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => [...spans],
    contentTypes: () => [...contentTypes],
    reset: () => {
      spans.length = 0;
      contentTypes.clear();
    },
  };
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value?: OtlpValue;
}
interface OtlpRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: {
        traceId?: unknown;
        spanId?: unknown;
        parentSpanId?: unknown;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
      }[];
    }[];
  }[];
}

/** The request's spans, ids as hex (JSON carries hex already; protobuf carries bytes). */
function flatten(request: OtlpRequest, hex: (id: unknown) => string): ExportedSpan[] {
  const attributesOf = (list: OtlpAttribute[] = []) =>
    Object.fromEntries(
      list.map(({ key, value }) => [key, value?.stringValue ?? value?.intValue ?? value?.boolValue ?? value?.doubleValue]),
    );
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const service = String(attributesOf(resourceSpans.resource?.attributes)["service.name"]);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        service,
        traceId: hex(span.traceId),
        spanId: hex(span.spanId),
        parentSpanId: hex(span.parentSpanId),
        name: span.name,
        kind: span.kind,
        attributes: attributesOf(span.attributes),
      })),
    );
  });
}

/** The part of OTLP's trace protocol (opentelemetry-proto, trace/v1) this test reads; field numbers as there. */
const otlpProto = protobuf.parse(`
  syntax = "proto3";
  message AnyValue { oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; } }
  message KeyValue { string key = 1; AnyValue value = 2; }
  message Resource { repeated KeyValue attributes = 1; }
  message Span {
    bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; string name = 5;
    int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9;
  }
  message ScopeSpans { repeated Span spans = 2; }
  message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
  message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
`).root;
