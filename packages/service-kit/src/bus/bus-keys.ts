/**
 * The keys that make the bus trustworthy. The gateway signs what it puts on the bus with an Ed25519 private
 * key; a service holds only the public key, so a compromised service can check calls but never forge one to
 * another service. A key is given as PEM (PKCS8 private, SPKI public) or as the base64 of that DER, which fits
 * on one line of an environment variable.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";

export interface BusKeySource {
  /** The gateway's private key: only the process that runs the gateway needs it. */
  signingKey?: string | undefined;
  /** The public half; derived from the signing key when only that is given. */
  verifyKey?: string | undefined;
}

/** A key that cannot be used, with a message the operator can act on. */
export class BusKeyError extends Error {}

export class BusKeys {
  readonly #signing: KeyObject | undefined;
  readonly #verifying: KeyObject;

  private constructor(signing: KeyObject | undefined, verifying: KeyObject) {
    this.#signing = signing;
    this.#verifying = verifying;
  }

  /** A fresh pair (the in-process bus, development modes, tests). */
  static generate(): BusKeys {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    return new BusKeys(privateKey, publicKey);
  }

  /** Parses configured keys; with both given, they must be one pair. */
  static from(source: BusKeySource): BusKeys {
    const signing = source.signingKey ? parseKey(source.signingKey, "private") : undefined;
    const verifying = source.verifyKey ? parseKey(source.verifyKey, "public") : signing ? createPublicKey(signing) : undefined;
    if (!verifying) throw new BusKeyError("No bus key given: set the verify key (services) or the signing key (gateway).");
    if (signing && !createPublicKey(signing).equals(verifying)) {
      throw new BusKeyError("The bus signing key and verify key are not one pair: create a new pair and set both halves.");
    }
    return new BusKeys(signing, verifying);
  }

  get canSign(): boolean {
    return this.#signing !== undefined;
  }

  sign(data: Uint8Array): string {
    if (!this.#signing) throw new BusKeyError("This process holds no bus signing key: only the gateway signs bus messages.");
    return sign(null, data, this.#signing).toString("base64");
  }

  verify(data: Uint8Array, signature: string): boolean {
    try {
      return verify(null, data, this.#verifying, Buffer.from(signature, "base64"));
    } catch {
      return false;
    }
  }

  /** `verify` on libuv's thread pool: the event loop goes on serving while the curve arithmetic runs. */
  verifyOffLoop(data: Uint8Array, signature: string): Promise<boolean> {
    return new Promise((resolve) => {
      try {
        verify(null, data, this.#verifying, Buffer.from(signature, "base64"), (error, valid) => resolve(!error && valid));
      } catch {
        resolve(false);
      }
    });
  }

  /** Both halves as one-line base64 DER (the signing half only when held). */
  export(): { signingKey?: string; verifyKey: string } {
    const verifyKey = this.#verifying.export({ format: "der", type: "spki" }).toString("base64");
    if (!this.#signing) return { verifyKey };
    return { signingKey: this.#signing.export({ format: "der", type: "pkcs8" }).toString("base64"), verifyKey };
  }
}

function parseKey(text: string, kind: "private" | "public"): KeyObject {
  const trimmed = text.trim();
  let key: KeyObject;
  try {
    const pem = trimmed.includes("-----BEGIN");
    const der = Buffer.from(trimmed, "base64");
    if (kind === "private") key = createPrivateKey(pem ? trimmed : { key: der, format: "der", type: "pkcs8" });
    else key = createPublicKey(pem ? trimmed : { key: der, format: "der", type: "spki" });
  } catch (error) {
    throw new BusKeyError(
      `The bus ${kind === "private" ? "signing" : "verify"} key cannot be read (${(error as Error).message}); expected ${kind === "private" ? "PKCS8" : "SPKI"} PEM or its base64 DER.`,
    );
  }
  if (key.asymmetricKeyType !== "ed25519")
    throw new BusKeyError(`The bus ${kind === "private" ? "signing" : "verify"} key must be Ed25519, not ${key.asymmetricKeyType}.`);
  return key;
}
