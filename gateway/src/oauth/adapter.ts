/**
 * oidc-provider's storage in PostgreSQL (the gateway schema, table `oauth_records`): one row per code, token,
 * session, interaction, registered client or grant. Rows are keyed by SHA-256 of the library's id, which for an
 * opaque token, a code or a session is the secret itself, so none is kept in clear; the payload's `jti` (that same
 * id) is dropped before writing and put back from the id asked for. A registered client's `client_secret` (a client
 * that asked for client_secret_basic/post: the library compares it as given) is sealed with AES-256-GCM under a key
 * every replica derives from the gateway's secret, and opened only when the library reads the client back. Every
 * replica reads the same rows.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { Adapter, AdapterPayload } from "oidc-provider";
import type { GatewayDb } from "../db/client.js";
import type { Prisma } from "../db/generated/client.js";

const hashId = (id: string): string => createHash("sha256").update(id).digest("hex");

const sealedPrefix = "sealed:v1:";

/** A client secret as it is stored: `sealed:v1:<iv>.<ciphertext>.<tag>` (base64url), AES-256-GCM under `key`. */
function sealSecret(secret: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return `${sealedPrefix}${[iv, sealed, cipher.getAuthTag()].map((part) => part.toString("base64url")).join(".")}`;
}

function openSecret(stored: string, key: Buffer): string {
  if (!stored.startsWith(sealedPrefix)) return stored;
  const [iv, sealed, tag] = stored
    .slice(sealedPrefix.length)
    .split(".")
    .map((part) => Buffer.from(part, "base64url"));
  const decipher = createDecipheriv("aes-256-gcm", key, iv!);
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(sealed!), decipher.final()]).toString("utf8");
}

/** The adapter class oidc-provider instantiates per model name; `secretKey` (32 bytes) seals clients' secrets. */
export function postgresAdapter(db: GatewayDb, secretKey: Buffer): new (model: string) => Adapter {
  return class PostgresAdapter implements Adapter {
    readonly #model: string;

    constructor(model: string) {
      this.#model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const { jti: _jti, ...kept } = payload;
      if (typeof kept.client_secret === "string") kept.client_secret = sealSecret(kept.client_secret, secretKey);
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
      const payload = row.payload as AdapterPayload;
      return {
        ...payload,
        ...(typeof payload.client_secret === "string" ? { client_secret: openSecret(payload.client_secret, secretKey) } : {}),
        ...(id !== undefined ? { jti: id } : {}),
        ...(row.consumedAt ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) } : {}),
      };
    }
  };
}
