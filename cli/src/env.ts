/** The only place that reads process.env: validated once at start, failing fast with a clear message. */
import { z } from "zod";
import { BusKeys } from "@bancada/service-kit";

const flag = z
  .enum(["1", "0", "true", "false", ""])
  .optional()
  .transform((value) => value === "1" || value === "true");
const list = z
  .string()
  .optional()
  .transform((value) => (value ?? "").split(",").map((item) => item.trim()).filter(Boolean));
const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);
const busKey = z.string().trim().min(40, "an Ed25519 key from 'pnpm bancada bus-keys create'");
const postgresUrl = z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL");

const envFields = z.object({
  DATABASE_URL: postgresUrl.optional(),
  SCRIPTS_DATABASE_URL: postgresUrl.optional(),
  GATEWAY_DATABASE_URL: postgresUrl.optional(),
  DOCS_DATABASE_URL: postgresUrl.optional(),
  BOARDS_DATABASE_URL: postgresUrl.optional(),
  DRAFTS_DATABASE_URL: postgresUrl.optional(),
  BOXES_DATABASE_URL: postgresUrl.optional(),
  DOCS_INGEST_ACCOUNTS: list,
  DOCS_DEMO_CORPUS: flag,
  BANCADA_PG_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  NATS_URL: z.string().regex(/^(nats|tls):\/\//, "must be a nats:// URL").optional(),
  HOST: z.string().default("127.0.0.1"),
  PORT: port(8787),
  SCRIPTS_PORT: port(8788),
  BOARDS_PORT: port(8789),
  DOCS_PORT: port(8790),
  DRAFTS_PORT: port(8791),
  BOXES_PORT: port(8792),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  BANCADA_DATA_DIR: z.string().default(".data"),
  BANCADA_SUBJECT_ROOT: z.string().regex(/^[A-Za-z0-9_-]+$/).default("bancada"),
  BANCADA_KEY_PEPPER: z.string().min(16).optional(),
  /** The gateway's Ed25519 private key for signing what it puts on NATS (PKCS8 PEM or its base64 DER). */
  BANCADA_BUS_SIGNING_KEY: busKey.optional(),
  /** The public half, for the services (SPKI PEM or its base64 DER). */
  BANCADA_BUS_VERIFY_KEY: busKey.optional(),
  BANCADA_API_KEY: z.string().optional(),
  BANCADA_ADMIN_TOKEN: z.string().min(24, "use at least 24 random characters").optional(),
  BANCADA_PROFILE: z.enum(["core", "full"]).default("full"),
  BANCADA_ALLOWED_ORIGINS: list,
  BANCADA_ALLOWED_HOSTS: list,
  BANCADA_RATE_BURST: z.coerce.number().int().positive().default(200),
  BANCADA_RATE_PER_SEC: z.coerce.number().positive().default(100),
  SOSOAPI_OUTPUT_SCHEMAS: flag,
  NODE_ENV: z.string().optional(),
});

/** The bus keys must parse and, when both are given, be one pair: a bad key fails at start, not at the first call. */
export const envSchema = envFields.superRefine((env, ctx) => {
  if (!env.BANCADA_BUS_SIGNING_KEY && !env.BANCADA_BUS_VERIFY_KEY) return;
  try {
    BusKeys.from({ signingKey: env.BANCADA_BUS_SIGNING_KEY, verifyKey: env.BANCADA_BUS_VERIFY_KEY });
  } catch (error) {
    ctx.addIssue({ code: "custom", path: [env.BANCADA_BUS_SIGNING_KEY ? "BANCADA_BUS_SIGNING_KEY" : "BANCADA_BUS_VERIFY_KEY"], message: (error as Error).message });
  }
});
export type Env = z.infer<typeof envSchema>;

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
  if (parsed.data.NODE_ENV === "production" && !parsed.data.BANCADA_KEY_PEPPER) {
    throw new UsageError("BANCADA_KEY_PEPPER must be set in production (at least 16 characters; keep it secret and stable).");
  }
  return parsed.data;
}

/** An error the user can fix: printed as one message, no stack. */
export class UsageError extends Error {}

/** A component's own database URL override (`<COMPONENT>_DATABASE_URL`), if any. */
export function componentDatabaseUrl(env: Env, component: string): string | undefined {
  const overrides: Record<string, string | undefined> = {
    scripts: env.SCRIPTS_DATABASE_URL,
    gateway: env.GATEWAY_DATABASE_URL,
    docs: env.DOCS_DATABASE_URL,
    boards: env.BOARDS_DATABASE_URL,
    drafts: env.DRAFTS_DATABASE_URL,
    boxes: env.BOXES_DATABASE_URL,
  };
  return overrides[component];
}

const developmentPepper = "bancada-development-pepper-not-secret";

/**
 * The pepper of API key hashes. The public development pepper serves the embedded database only: a real
 * database's keys would otherwise hang on a value anyone can read in this repository.
 */
export function keyPepper(env: Env): string {
  if (env.BANCADA_KEY_PEPPER) return env.BANCADA_KEY_PEPPER;
  if (env.DATABASE_URL || env.GATEWAY_DATABASE_URL) {
    throw new UsageError("Set BANCADA_KEY_PEPPER (a stable secret of at least 16 characters, e.g. `openssl rand -base64 32`): with DATABASE_URL the development pepper is not used.");
  }
  return developmentPepper;
}
