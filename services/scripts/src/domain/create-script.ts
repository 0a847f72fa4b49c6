/**
 * Saves a new script. With an idempotency key, the first call's result is stored in the same
 * transaction; a retry (even one racing the first: the key's primary key makes it wait) gets that
 * result back and writes nothing. The same key with other arguments is `idempotency_conflict`.
 */
import { createHash, randomUUID } from "node:crypto";
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { ScriptsTx } from "../db/client.js";
import type { ScriptsContext } from "./context.js";
import { appendChange } from "./feed.js";
import { scriptView, type CreateScriptInput, type ScriptView } from "./schemas.js";
import { toScriptView } from "./script-view.js";

export async function createScript(ctx: ScriptsContext, input: CreateScriptInput): Promise<ScriptView> {
  return ctx.db.$transaction(async (tx) => {
    if (!input.idempotencyKey) return insertScript(tx, ctx, input);
    const requestHash = hashRequest(input);
    const claimed = await tx.$executeRaw`
      INSERT INTO create_requests (account_id, key, request_hash, response)
      VALUES (${ctx.accountId}, ${input.idempotencyKey}::uuid, ${requestHash}, '{}'::jsonb)
      ON CONFLICT DO NOTHING`;
    if (claimed === 0) return replay(tx, ctx.accountId, input.idempotencyKey, requestHash);
    const script = await insertScript(tx, ctx, input);
    await tx.createRequest.update({
      where: { accountId_key: { accountId: ctx.accountId, key: input.idempotencyKey } },
      data: { response: script },
    });
    return script;
  });
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

async function replay(tx: ScriptsTx, accountId: string, key: string, requestHash: string): Promise<ScriptView> {
  const previous = await tx.createRequest.findUniqueOrThrow({ where: { accountId_key: { accountId, key } } });
  if (previous.requestHash !== requestHash) {
    throw new DomainError(
      ErrorCode.idempotencyConflict,
      "This idempotencyKey was already used with other arguments; use a new key for a new script.",
      {
        idempotencyKey: key,
      },
    );
  }
  return scriptView.parse(previous.response);
}

function hashRequest(input: CreateScriptInput): string {
  return createHash("sha256")
    .update(JSON.stringify([input.title, input.text, input.status]))
    .digest("hex");
}
