/**
 * oidc-provider's storage in PostgreSQL (the gateway schema, table `oauth_records`): one row per code, token,
 * session, interaction, registered client or grant. Rows are keyed by SHA-256 of the library's id, which for an
 * opaque token, a code or a session is the secret itself, so none is kept in clear; the payload's `jti` (that same
 * id) is dropped before writing and put back from the id asked for. Every replica reads the same rows.
 */
import { createHash } from "node:crypto";
import type { Adapter, AdapterPayload } from "oidc-provider";
import type { GatewayDb } from "../db/client.js";
import type { Prisma } from "../db/generated/client.js";

export const hashId = (id: string): string => createHash("sha256").update(id).digest("hex");

/** The adapter class oidc-provider instantiates per model name. */
export function postgresAdapter(db: GatewayDb): new (model: string) => Adapter {
  return class PostgresAdapter implements Adapter {
    readonly #model: string;

    constructor(model: string) {
      this.#model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const { jti: _jti, ...kept } = payload;
      const row = {
        payload: kept as Prisma.InputJsonValue,
        grantId: payload.grantId ?? null,
        uid: payload.uid ?? null,
        userCode: payload.userCode ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      const key = { model: this.#model, idHash: hashId(id) };
      await db.oAuthRecord.upsert({ where: { model_idHash: key }, create: { ...key, ...row }, update: row });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const row = await db.oAuthRecord.findUnique({ where: { model_idHash: { model: this.#model, idHash: hashId(id) } } });
      return row ? this.#payload(row, id) : undefined;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const row = await db.oAuthRecord.findFirst({ where: { model: this.#model, uid } });
      // the one model looked up by uid is the session, whose id is its cookie's value: that id is not ours to give back
      return row ? this.#payload(row, undefined) : undefined;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const row = await db.oAuthRecord.findFirst({ where: { model: this.#model, userCode } });
      return row ? this.#payload(row, undefined) : undefined;
    }

    async consume(id: string): Promise<void> {
      await db.oAuthRecord.updateMany({ where: { model: this.#model, idHash: hashId(id) }, data: { consumedAt: new Date() } });
    }

    async destroy(id: string): Promise<void> {
      await db.oAuthRecord.deleteMany({ where: { model: this.#model, idHash: hashId(id) } });
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.oAuthRecord.deleteMany({ where: { grantId } });
    }

    #payload(
      row: { payload: Prisma.JsonValue; expiresAt: Date | null; consumedAt: Date | null },
      id: string | undefined,
    ): AdapterPayload | undefined {
      if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return undefined;
      return {
        ...(row.payload as AdapterPayload),
        ...(id !== undefined ? { jti: id } : {}),
        ...(row.consumedAt ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) } : {}),
      };
    }
  };
}
