/** The only place that reads process.env: validated once at start, failing fast with a clear message. */
import { accessSync, constants, statSync } from "node:fs";
import { z } from "zod";
import { BusKeys, envFlag as flag, envList as list, natsServers } from "@bancada/service-kit";
import { services, type ServiceName } from "./services.js";

const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);
const busKey = z.string().trim().min(1, "a line from 'pnpm bancada bus-keys create'");
const natsServerPattern = /^(nats|tls):\/\/[^\s,/]+(:\d+)?\/?$/;
const readableFile = z
  .string()
  .min(1)
  .refine((file) => {
    try {
      accessSync(file, constants.R_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  }, "must name a file this process can read");
const otlpProtocol = z.enum(["http/protobuf", "http/json"], {
  error: "must be http/protobuf (the default) or http/json; this build does not export over grpc",
});
const postgresUrl = z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL");

type ServiceFields = { [N in ServiceName as `${Uppercase<N>}_DATABASE_URL`]: ReturnType<typeof postgresUrl.optional> } & {
  [N in ServiceName as `${Uppercase<N>}_PORT`]: ReturnType<typeof port>;
} & { [N in ServiceName as `${Uppercase<N>}_INTERNAL_URL`]: ReturnType<typeof internalUrl.optional> };

/** Where a gateway reaches a service run in another process (`http://scripts:8788`); the relay's target. */
const internalUrl = z.url({ protocol: /^http$/, error: "must be the http:// URL of the service's own port, as the gateway reaches it" });

/** Each service's own database (`<SERVICE>_DATABASE_URL`, instead of DATABASE_URL) and its REST port when it runs alone. */
function serviceFields(): ServiceFields {
  const fields: Record<string, z.ZodType> = {};
  for (const service of services) {
    fields[databaseUrlVariable(service.name)] = postgresUrl.optional();
    fields[`${service.name.toUpperCase()}_PORT`] = port(service.port);
    fields[internalUrlVariable(service.name)] = internalUrl.optional();
    // the variables a service declares for itself (cli/src/services.ts `envFields`), validated with the rest
    Object.assign(fields, service.envFields);
  }
  // the names are made from the list, so TypeScript cannot see they are those of ServiceFields
  return fields as ServiceFields;
}

const sharedFields = z.object({
  DATABASE_URL: postgresUrl.optional(),
  GATEWAY_DATABASE_URL: postgresUrl.optional(),
  BANCADA_PG_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  /** One NATS server or several of one cluster, comma-separated. */
  NATS_URL: z
    .string()
    .refine((value) => {
      const servers = natsServers(value);
      return servers.length > 0 && servers.every((server) => natsServerPattern.test(server));
    }, "must be one nats:// (or tls://) URL or several separated by commas, e.g. nats://nats-0:4222,nats://nats-1:4222")
    .optional(),
  /** This component's NATS user and password, or NATS_CREDS: a .creds file (user JWT and nkey seed). */
  NATS_USER: z.string().min(1).optional(),
  NATS_PASSWORD: z.string().min(1).optional(),
  NATS_CREDS: readableFile.optional(),
  /** A CA certificate (PEM file) the NATS servers' TLS certificates must chain to; TLS is then required. */
  NATS_TLS_CA: readableFile.optional(),
  /** This component's client certificate and its key (PEM files), where the NATS servers verify clients: both or neither. */
  NATS_TLS_CERT: readableFile.optional(),
  NATS_TLS_KEY: readableFile.optional(),
  HOST: z.string().default("127.0.0.1"),
  PORT: port(8787),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** json (one JSON object a line, for machines) or pretty (for a terminal). */
  LOG_FORMAT: z.enum(["json", "pretty"]).default("json"),
  BANCADA_DATA_DIR: z.string().default(".data"),
  BANCADA_SUBJECT_ROOT: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default("bancada"),
  BANCADA_KEY_PEPPER: z.string().min(16).optional(),
  /** The gateway's bus master secret (32 bytes as base64), from which every service's bus key is derived. */
  BANCADA_BUS_SIGNING_KEY: busKey.optional(),
  /** A service process's bus keys: `service:base64[,service:base64]`, one for each service it runs. */
  BANCADA_BUS_VERIFY_KEY: busKey.optional(),
  BANCADA_API_KEY: z.string().optional(),
  BANCADA_ADMIN_TOKEN: z.string().min(24, "use at least 24 random characters").optional(),
  /** The bearer token a Prometheus scrape of `/metrics` sends; without it, production serves no metrics. */
  BANCADA_METRICS_TOKEN: z.string().min(24, "use at least 24 random characters").optional(),
  BANCADA_PROFILE: z.enum(["core", "full", "search"]).default("full"),
  /** Where people open the web console (the gateway's public address); the boards tools and prompts send people there to create boards. */
  BANCADA_PUBLIC_URL: z.url({ protocol: /^https?$/, error: "must be the http(s) URL people open the console at" }).optional(),
  BANCADA_ALLOWED_ORIGINS: list,
  BANCADA_ALLOWED_HOSTS: list,
  BANCADA_RATE_BURST: z.coerce.number().int().positive().default(200),
  BANCADA_RATE_PER_SEC: z.coerce.number().positive().default(100),
  /** HTTP connections open at once per port; a new one past it closes the oldest idle one. */
  BANCADA_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(1_024),
  /** Seconds a request's body may take to arrive (/mcp and the REST routes); then 408. */
  BANCADA_BODY_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  SOSOAPI_OUTPUT_SCHEMAS: flag,
  /** Development only: OAuth may fetch client metadata documents from loopback and private addresses. */
  BANCADA_OAUTH_ALLOW_PRIVATE_CLIENT_DOCUMENTS: flag,
  /**
   * Traces go to an OTLP/HTTP collector when one of these is set (the base URL, `/v1/traces` appended, or the
   * full traces URL); the exporter reads them, and OTEL_EXPORTER_OTLP_HEADERS and the other OTEL_* ones, itself.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol.optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol.optional(),
  NODE_ENV: z.string().optional(),
});

const envFields = sharedFields.extend(serviceFields());

/** The bus keys must parse and, when both are given, be of one master: a bad key fails at start, not at the first call. */
const envSchema = envFields.superRefine((env, ctx) => {
  natsCredentials(env, ctx);
  if (!env.BANCADA_BUS_SIGNING_KEY && !env.BANCADA_BUS_VERIFY_KEY) return;
  try {
    BusKeys.from({ signingKey: env.BANCADA_BUS_SIGNING_KEY, verifyKey: env.BANCADA_BUS_VERIFY_KEY });
  } catch (error) {
    // a key's message starts with the variable it is about
    const message = (error as Error).message;
    const variable = message.startsWith("BANCADA_BUS_VERIFY_KEY: ") ? "BANCADA_BUS_VERIFY_KEY" : "BANCADA_BUS_SIGNING_KEY";
    ctx.addIssue({ code: "custom", path: [variable], message: message.replace(`${variable}: `, "") });
  }
});
export type Env = z.infer<typeof envSchema>;

/** NATS credentials are a user with its password, or a creds file: one way, given whole, and only with NATS_URL. */
function natsCredentials(env: z.infer<typeof envFields>, ctx: z.RefinementCtx): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (env.NATS_USER !== undefined && env.NATS_PASSWORD === undefined) issue("NATS_PASSWORD", "must be set with NATS_USER");
  if (env.NATS_PASSWORD !== undefined && env.NATS_USER === undefined) issue("NATS_USER", "must be set with NATS_PASSWORD");
  if (env.NATS_CREDS !== undefined && env.NATS_USER !== undefined)
    issue("NATS_CREDS", "give either NATS_CREDS or NATS_USER/NATS_PASSWORD, not both");
  if (env.NATS_TLS_CERT !== undefined && env.NATS_TLS_KEY === undefined) issue("NATS_TLS_KEY", "must be set with NATS_TLS_CERT");
  if (env.NATS_TLS_KEY !== undefined && env.NATS_TLS_CERT === undefined) issue("NATS_TLS_CERT", "must be set with NATS_TLS_KEY");
  if (!env.NATS_URL) {
    for (const name of ["NATS_USER", "NATS_PASSWORD", "NATS_CREDS", "NATS_TLS_CA", "NATS_TLS_CERT", "NATS_TLS_KEY"] as const) {
      if (env[name] !== undefined) issue(name, "is used only with NATS_URL, which is not set");
    }
  }
}

/** The variable naming where the gateway reaches a service run in another process (`--only`): SCRIPTS_INTERNAL_URL. */
export function internalUrlVariable(service: string): string {
  return `${service.toUpperCase()}_INTERNAL_URL`;
}

/** The variable that holds the REST port of a service run without the gateway (`--only boards` → BOARDS_PORT). */
export function servicePortVariable(service: string): keyof Env & `${string}_PORT` {
  const name = `${service.toUpperCase()}_PORT`;
  if (!(name in envFields.shape)) throw new Error(`no port variable for the service ${service}`);
  return name as keyof Env & `${string}_PORT`;
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new UsageError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

/** An error the user can fix: printed as one message, no stack. */
export class UsageError extends Error {}

/** The variable of a component's own database (`gateway` → GATEWAY_DATABASE_URL). */
function databaseUrlVariable(component: string): string {
  return `${component.toUpperCase()}_DATABASE_URL`;
}

/** A component's own database URL override (`<COMPONENT>_DATABASE_URL`), if any. */
export function componentDatabaseUrl(env: Env, component: string): string | undefined {
  const name = databaseUrlVariable(component);
  return name in envFields.shape ? (env[name as keyof Env] as string | undefined) : undefined;
}

const developmentPepper = "bancada-development-pepper-not-secret";

/**
 * The pepper of API key hashes. The public development pepper serves the embedded database only: a real
 * database's keys would otherwise hang on a value anyone can read in this repository.
 */
export function keyPepper(env: Env): string {
  if (env.BANCADA_KEY_PEPPER) return env.BANCADA_KEY_PEPPER;
  if (env.DATABASE_URL || env.GATEWAY_DATABASE_URL || env.NODE_ENV === "production") {
    throw new UsageError(
      "Set BANCADA_KEY_PEPPER (a stable secret of at least 16 characters, e.g. `openssl rand -base64 32`; 'pnpm bancada secrets create' makes it with the other production secrets): with DATABASE_URL or NODE_ENV=production the development pepper is not used.",
    );
  }
  return developmentPepper;
}
