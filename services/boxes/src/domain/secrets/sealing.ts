/**
 * Secret values at rest: AES-256-GCM with a 32-byte key from config (BOXES_SECRETS_KEY). Each value gets a fresh
 * 96-bit nonce; the account id and the secret's name are the additional data, so a sealed value copied to another
 * account or name does not open. Stored as nonce (12 bytes) ‖ tag (16) ‖ ciphertext.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const nonceBytes = 12;
const tagBytes = 16;

/**
 * The development key: public (it is in this file), for the embedded mode and tests only. The bancada command
 * refuses to start boxes with DATABASE_URL and no BOXES_SECRETS_KEY (cli/src/env.ts).
 */
export const developmentSecretsKey = Buffer.alloc(32, "bancada-development-secrets-key!").toString("base64");

export class SecretsKey {
  readonly #key: Buffer;
  /** Names the key without revealing it: the first 16 hex digits of its SHA-256. */
  readonly id: string;

  private constructor(key: Buffer) {
    this.#key = key;
    this.id = createHash("sha256").update(key).digest("hex").slice(0, 16);
  }

  /** 32 bytes as base64 (44 characters) or hex (64 digits); anything else throws, naming what is expected. */
  static from(text: string): SecretsKey {
    const trimmed = text.trim();
    const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
    if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(trimmed) && key.toString("base64") !== trimmed))
      throw new Error("BOXES_SECRETS_KEY must be 32 random bytes as base64 (44 characters) or hex (64 digits): `openssl rand -base64 32`");
    return new SecretsKey(key);
  }

  seal(accountId: string, name: string, value: string): Buffer {
    const nonce = randomBytes(nonceBytes);
    const cipher = createCipheriv("aes-256-gcm", this.#key, nonce);
    cipher.setAAD(additionalData(accountId, name));
    const sealed = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
    return Buffer.concat([nonce, cipher.getAuthTag(), sealed]);
  }

  /** The value, or null when it does not open with this key for this account and name. */
  open(accountId: string, name: string, sealed: Uint8Array): string | null {
    const bytes = Buffer.from(sealed);
    if (bytes.length < nonceBytes + tagBytes) return null;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.#key, bytes.subarray(0, nonceBytes));
      decipher.setAAD(additionalData(accountId, name));
      decipher.setAuthTag(bytes.subarray(nonceBytes, nonceBytes + tagBytes));
      return Buffer.concat([decipher.update(bytes.subarray(nonceBytes + tagBytes)), decipher.final()]).toString("utf8");
    } catch {
      return null;
    }
  }
}

const additionalData = (accountId: string, name: string) => Buffer.from(`bancada boxes secret\0${accountId}\0${name}`, "utf8");
