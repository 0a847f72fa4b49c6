/**
 * What the `bancada` command needs to know to run this service, kept here rather than in the command: the
 * variables it validates at start for boxes (merged into its one environment schema, so a bad value stops the
 * start with the others), the rule that refuses a real database without a sealing key, and the options it adds
 * to every service's. The service itself still reads the rest of its settings in config.ts.
 */
import path from "node:path";
import { z } from "zod";
import { SecretsKey } from "./domain/secrets/sealing.js";
import type { BoxesServiceOptions } from "./service.js";

export const boxesEnvFields = {
  /** The key sealing the boxes' workspace secrets (32 bytes, base64 or hex). */
  BOXES_SECRETS_KEY: z
    .string()
    .refine((text) => {
      try {
        SecretsKey.from(text);
        return true;
      } catch {
        return false;
      }
    }, "must be 32 random bytes as base64 (44 characters) or hex (64 digits), e.g. `openssl rand -base64 32`")
    .optional(),
  /** What this process runs: both parts (all), the control plane only, or this machine's node agent only (config.ts). */
  BOXES_ROLE: z.enum(["all", "control", "node"], { error: "must be all, control or node" }).optional(),
  /** One boxes replica's own public URL, over BANCADA_PUBLIC_URL in its transfer URLs (several boxes nodes). */
  BOXES_PUBLIC_URL: z.url({ protocol: /^https?$/, error: "must be the http(s) URL that reaches this boxes replica" }).optional(),
};

/** The command's environment as boxes reads it: the shared variables it depends on, and its own (validated already). */
export interface BoxesCommandEnv {
  BANCADA_DATA_DIR: string;
  BANCADA_PUBLIC_URL?: string | undefined;
  DATABASE_URL?: string | undefined;
  [variable: string]: unknown;
}

const ownVariables = z.object({ ...boxesEnvFields, BOXES_DATABASE_URL: z.string().optional() });

/**
 * Why the command must not start boxes with this environment, one line, or undefined. Without a key the service
 * seals with its public development key, which serves the embedded database only: secrets in a real database would
 * otherwise open with a key anyone can read in this repository.
 */
export function boxesEnvRefusal(env: BoxesCommandEnv): string | undefined {
  const own = ownVariables.parse(env);
  if (own.BOXES_SECRETS_KEY || !(env.DATABASE_URL || own.BOXES_DATABASE_URL)) return undefined;
  return "Set BOXES_SECRETS_KEY (32 random bytes, e.g. `openssl rand -base64 32`; stable: changing it makes the stored secrets unreadable): with DATABASE_URL the development key is not used.";
}

/** The options the command gives boxes beyond every service's. */
export function boxesCommandOptions(
  env: BoxesCommandEnv,
  { embedded }: { embedded: boolean },
): Pick<BoxesServiceOptions, "dataDir" | "publicUrl" | "sshPortFallback" | "secretsKey"> {
  const own = ownVariables.parse(env);
  // transfer URLs name the one public entry (the gateway relays them); BOXES_PUBLIC_URL names one replica instead
  const publicUrl = own.BOXES_PUBLIC_URL ?? env.BANCADA_PUBLIC_URL;
  return {
    dataDir: path.join(path.resolve(env.BANCADA_DATA_DIR), "boxes"),
    ...(publicUrl ? { publicUrl } : {}),
    sshPortFallback: embedded,
    ...(own.BOXES_SECRETS_KEY ? { secretsKey: own.BOXES_SECRETS_KEY } : {}),
  };
}
