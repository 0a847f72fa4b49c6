/**
 * Workspace secrets (docs/boxes.md#secrets): set (create or replace), list names, delete; the value is sealed
 * (sealing.ts) and never read back by any call. A box lists the names it may use (create_box `secrets`); each
 * command in it (exec, start_job, setup, task) gets them as environment variables, opened at that moment.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxRow } from "../../db/client.js";
import type { BoxesContext, BoxesRuntime } from "../context.js";
import type { SecretView, SetSecretInput } from "./schemas.js";

/** ours: how many secrets one workspace may hold. */
const secretsPerAccountMax = 100;

export async function setSecret(ctx: BoxesContext, input: SetSecretInput): Promise<SecretView> {
  const now = new Date();
  const sealed = ctx.secretsKey.seal(ctx.accountId, input.name, input.value);
  const row = await ctx.db.$transaction(async (tx) => {
    // One account's secrets are set one at a time, so the count below cannot be outrun by a concurrent set.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`bancada boxes secrets ${ctx.accountId}`}, 0))`;
    const exists = await tx.secret.findUnique({ where: { accountId_name: { accountId: ctx.accountId, name: input.name } } });
    if (!exists && (await tx.secret.count({ where: { accountId: ctx.accountId } })) >= secretsPerAccountMax) {
      throw new DomainError(
        ErrorCode.failedPrecondition,
        `This workspace already holds ${secretsPerAccountMax} secrets, the most it may; delete one it no longer needs first.`,
        { limit: secretsPerAccountMax },
      );
    }
    const data = { sealed: new Uint8Array(sealed), keyId: ctx.secretsKey.id, updatedAt: now, updatedBy: ctx.personId };
    return tx.secret.upsert({
      where: { accountId_name: { accountId: ctx.accountId, name: input.name } },
      create: { accountId: ctx.accountId, name: input.name, createdAt: now, ...data },
      update: data,
    });
  });
  return secretViewOf(row);
}

export async function listSecrets(ctx: BoxesContext): Promise<SecretView[]> {
  const rows = await ctx.db.secret.findMany({ where: { accountId: ctx.accountId }, orderBy: { name: "asc" } });
  return rows.map(secretViewOf);
}

export async function deleteSecret(ctx: BoxesContext, name: string): Promise<{ name: string; deleted: true }> {
  const { count } = await ctx.db.secret.deleteMany({ where: { accountId: ctx.accountId, name } });
  if (count === 0) throw new DomainError(ErrorCode.notFound, `No secret named ${name} in this workspace.`, { name });
  return { name, deleted: true };
}

/** create_box: every secret named must exist in the caller's workspace. */
export async function checkSecretsExist(ctx: BoxesContext, names: string[]): Promise<void> {
  if (names.length === 0) return;
  const rows = await ctx.db.secret.findMany({ where: { accountId: ctx.accountId, name: { in: names } }, select: { name: true } });
  const missing = names.filter((name) => !rows.some((row) => row.name === name));
  if (missing.length > 0) {
    throw new DomainError(
      ErrorCode.notFound,
      `No workspace secret named ${missing.join(", ")}; set it first (PUT /v1/secrets/<name>) or leave it out of secrets.`,
      { secrets: missing },
    );
  }
}

/**
 * The environment a command in `box` gets from the workspace secrets it names. A secret deleted since, or one
 * that no longer opens (the key was changed), stops the command with the name: running it without the value
 * would fail later in a way that is harder to understand.
 */
export async function secretEnv(rt: BoxesRuntime, box: Pick<BoxRow, "accountId" | "secrets">): Promise<Record<string, string>> {
  if (box.secrets.length === 0) return {};
  const rows = await rt.db.secret.findMany({ where: { accountId: box.accountId, name: { in: box.secrets } } });
  const env: Record<string, string> = {};
  for (const name of box.secrets) {
    const row = rows.find((candidate) => candidate.name === name);
    if (!row)
      throw new DomainError(
        ErrorCode.failedPrecondition,
        `The box uses the workspace secret ${name}, which was deleted; set it again (PUT /v1/secrets/${name}) to run commands here.`,
        { secret: name },
      );
    const value = rt.secretsKey.open(box.accountId, name, row.sealed);
    if (value === null)
      throw new DomainError(
        ErrorCode.failedPrecondition,
        `The workspace secret ${name} was sealed with another key than this service's BOXES_SECRETS_KEY (key ${row.keyId}); set it again.`,
        { secret: name, keyId: row.keyId },
      );
    env[name] = value;
  }
  return env;
}

function secretViewOf(row: { name: string; createdAt: Date; updatedAt: Date; updatedBy: string }): SecretView {
  return { name: row.name, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(), updatedBy: row.updatedBy };
}
