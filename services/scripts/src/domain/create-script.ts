/**
 * Saves a new script. With an idempotency key, the first call's result is stored in the same
 * transaction; a retry (even one racing the first: the key's primary key makes it wait) gets that
 * result back and writes nothing. The same key with other arguments is `idempotency_conflict`.
 */
import { createHash, randomUUID } from "node:crypto";
import { DomainError, ErrorCode } from "@bancada/contracts";
import { idempotentWrite, type IdempotencyRecords } from "@bancada/service-kit";
import type { ScriptsTx } from "../db/client.js";
import type { ScriptsContext } from "./context.js";
import { appendChange } from "./feed.js";
import { scriptView, type CreateScriptInput, type ScriptView } from "./schemas.js";
import { toScriptView } from "./script-view.js";

export async function createScript(ctx: ScriptsContext, input: CreateScriptInput): Promise<ScriptView> {
  return ctx.db.$transaction(async (tx) => {
    const key = input.idempotencyKey;
    if (!key) return insertScript(tx, ctx, input);
    return idempotentWrite<ScriptView, unknown>(createRequests(tx, ctx.accountId, key), {
      hash: hashRequest(input),
      conflict: () =>
        new DomainError(
          ErrorCode.idempotencyConflict,
          "This idempotencyKey was already used with other arguments; use a new key for a new script.",
          {
            idempotencyKey: key,
          },
        ),
      run: () => insertScript(tx, ctx, input),
      replay: (stored) => scriptView.parse(stored),
    });
  });
}

/** The record of one idempotencyKey in `create_requests` (swept after 7 days: expire-requests.ts). */
function createRequests(tx: ScriptsTx, accountId: string, key: string): IdempotencyRecords<unknown> {
  const where = { accountId_key: { accountId, key } };
  return {
    insert: (hash) => tx.$executeRaw`
      INSERT INTO create_requests (account_id, key, request_hash, response)
      VALUES (${accountId}, ${key}::uuid, ${hash}, '{}'::jsonb)
      ON CONFLICT DO NOTHING`,
    find: async () => {
      const previous = await tx.createRequest.findUnique({ where });
      return previous ? { hash: previous.requestHash, stored: previous.response } : null;
    },
    save: async (response) => {
      await tx.createRequest.update({ where, data: { response: response as object } });
    },
  };
}

async function insertScript(tx: ScriptsTx, ctx: ScriptsContext, input: CreateScriptInput): Promise<ScriptView> {
  const now = new Date();
  const row = await tx.script.create({
    data: {
      id: randomUUID(),
      accountId: ctx.accountId,
      title: input.title,
      text: input.text,
      status: input.status,
      revision: 1,
      createdAt: now,
      updatedAt: now,
      createdBy: ctx.personId,
      updatedBy: ctx.personId,
    },
  });
  await appendChange(tx, { accountId: ctx.accountId, scriptId: row.id, revision: 1, kind: "created", at: now });
  return toScriptView(row);
}

function hashRequest(input: CreateScriptInput): string {
  return createHash("sha256")
    .update(JSON.stringify([input.title, input.text, input.status]))
    .digest("hex");
}
