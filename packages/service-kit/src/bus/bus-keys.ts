/**
 * The keys that make the bus trustworthy: one HMAC-SHA256 key per service, derived from a master secret only the
 * gateway holds (`K_s = HMAC-SHA256(master, "bancada bus key v1\0" + s)`). The gateway tags what it sends to
 * service `s` with `K_s`; a process running `s` holds `K_s` and nothing else, so it can check calls to `s` (and
 * make them: it already runs `s`) but can tag nothing another service accepts, as no key derives from another.
 * The gateway's own messages to the other gateway replicas (client cancellations) use the key of the reserved
 * name `gateway`, which no service is given.
 *
 * Configuration: the master as base64 of 32 bytes (`BANCADA_BUS_SIGNING_KEY`), or a service process's keys as
 * `service:base64[,service:base64]` (`BANCADA_BUS_VERIFY_KEY`). `pnpm bancada bus-keys create` prints both.
 */
import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from "node:crypto";

export interface BusKeySource {
  /** The master secret: only the process that runs the gateway needs it. */
  signingKey?: string | undefined;
  /** A service process's keys, `service:base64[,service:base64]`; with the master, each must be derived from it. */
  verifyKey?: string | undefined;
}

/** A key that cannot be used, with a message the operator can act on. */
export class BusKeyError extends Error {}

/** The scope of the gateway's messages to its own replicas; never a service's name. */
export const gatewayKeyScope = "gateway";

const keyBytes = 32;
/** The derived keys the master's holder keeps: far more than the services there are. */
const derivedKeysKept = 64;
const createHint = "run 'pnpm bancada bus-keys create' and set its lines";
const oldKeyMessage = (variable: string) =>
  `${variable}: this is an old Ed25519 key (the bus takes per-service HMAC keys now): ${createHint} (the master on the gateway, each service's line on its processes).`;

/** One scope's key: tags and checks the messages of one service (or of the gateways among themselves). */
export class BusKey {
  readonly scope: string;
  readonly #secret: KeyObject;

  constructor(scope: string, secret: KeyObject) {
    this.scope = scope;
    this.#secret = secret;
  }

  tag(data: Uint8Array): string {
    return createHmac("sha256", this.#secret).update(data).digest("base64url");
  }

  /** In constant time: a wrong tag says nothing about how much of it was right. */
  matches(data: Uint8Array, tag: string): boolean {
    const given = Buffer.from(tag, "base64url");
    const expected = createHmac("sha256", this.#secret).update(data).digest();
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  export(): string {
    return this.#secret.export().toString("base64");
  }
}

export class BusKeys {
  readonly #master: Buffer | undefined;
  readonly #keys = new Map<string, BusKey>();

  private constructor(master: Buffer | undefined, keys: Iterable<BusKey> = []) {
    this.#master = master;
    for (const key of keys) this.#keys.set(key.scope, key);
  }

  /** A fresh master (the in-process bus, development modes, tests). */
  static generate(): BusKeys {
    return new BusKeys(randomBytes(keyBytes));
  }

  /** Parses configured keys; with both given, every service key must be the one the master derives. */
  static from(source: BusKeySource): BusKeys {
    const master = source.signingKey ? parseMaster(source.signingKey) : undefined;
    const keys = source.verifyKey ? parseServiceKeys(source.verifyKey) : [];
    if (!master && keys.length === 0) throw new BusKeyError(`No bus key given: ${createHint}.`);
    const keySet = new BusKeys(master, keys);
    if (master)
      for (const key of keys)
        if (derive(master, key.scope).export() !== key.export())
          throw new BusKeyError(
            `BANCADA_BUS_VERIFY_KEY: the key of service '${key.scope}' is not derived from the master secret in BANCADA_BUS_SIGNING_KEY: ${createHint} again, all of them.`,
          );
    return keySet;
  }

  /** True where the master is held (the gateway's process): every scope's key can be derived. */
  get holdsMaster(): boolean {
    return this.#master !== undefined;
  }

  /** The services (and scopes) whose keys are held, besides what the master derives. */
  get scopes(): string[] {
    return [...this.#keys.keys()];
  }

  /** The key of one service's messages; derived once from the master, or one of the keys given. */
  for(scope: string): BusKey {
    let key = this.#keys.get(scope);
    if (!key) {
      if (!this.#master)
        throw new BusKeyError(
          `This process holds no bus key for '${scope}': set BANCADA_BUS_VERIFY_KEY with '${scope}:<key>' (${createHint}).`,
        );
      key = derive(this.#master, scope);
      // a request on the bus can name any scope (auth.resolve names its asker): only a bounded few are kept
      if (this.#keys.size < derivedKeysKept) this.#keys.set(scope, key);
    }
    return key;
  }

  /** The keys of these services only, without the master: what a process running just them may hold. */
  only(scopes: string[]): BusKeys {
    return new BusKeys(
      undefined,
      scopes.map((scope) => this.for(scope)),
    );
  }

  /** As the environment takes them: the master when held, the service keys held apart from it. */
  export(): { signingKey?: string; verifyKey?: string } {
    const verifyKey = this.#master ? undefined : [...this.#keys.values()].map((key) => `${key.scope}:${key.export()}`).join(",");
    return {
      ...(this.#master ? { signingKey: this.#master.toString("base64") } : {}),
      ...(verifyKey ? { verifyKey } : {}),
    };
  }
}

function derive(master: Buffer, scope: string): BusKey {
  const secret = createHmac("sha256", master).update(`bancada bus key v1\0${scope}`).digest();
  return new BusKey(scope, createSecretKey(secret));
}

function parseMaster(text: string): Buffer {
  const bytes = decodeKey(text, "BANCADA_BUS_SIGNING_KEY");
  if (bytes.length !== keyBytes)
    throw new BusKeyError(`BANCADA_BUS_SIGNING_KEY: must be ${keyBytes} random bytes as base64 (44 characters): ${createHint}.`);
  return bytes;
}

function parseServiceKeys(text: string): BusKey[] {
  const keys = new Map<string, BusKey>();
  for (const entry of text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const colon = entry.indexOf(":");
    if (colon <= 0) {
      if (looksLikeEd25519(entry)) throw new BusKeyError(oldKeyMessage("BANCADA_BUS_VERIFY_KEY"));
      throw new BusKeyError(`BANCADA_BUS_VERIFY_KEY: takes 'service:<key>' entries separated by commas: ${createHint}.`);
    }
    const scope = entry.slice(0, colon).trim();
    if (scope === gatewayKeyScope)
      throw new BusKeyError("BANCADA_BUS_VERIFY_KEY: names 'gateway', whose key only the gateway derives (from BANCADA_BUS_SIGNING_KEY).");
    const bytes = decodeKey(entry.slice(colon + 1), "BANCADA_BUS_VERIFY_KEY");
    if (bytes.length !== keyBytes)
      throw new BusKeyError(`BANCADA_BUS_VERIFY_KEY: the key of service '${scope}' must be ${keyBytes} bytes as base64: ${createHint}.`);
    keys.set(scope, new BusKey(scope, createSecretKey(bytes)));
  }
  return [...keys.values()];
}

function decodeKey(text: string, variable: string): Buffer {
  const trimmed = text.trim();
  if (looksLikeEd25519(trimmed)) throw new BusKeyError(oldKeyMessage(variable));
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) throw new BusKeyError(`${variable}: not base64: ${createHint}.`);
  return Buffer.from(trimmed, "base64");
}

/** A PEM, or the base64 DER of an Ed25519 PKCS8/SPKI key (both start with a SEQUENCE and the Ed25519 OID). */
function looksLikeEd25519(text: string): boolean {
  if (text.includes("-----BEGIN")) return true;
  const der = Buffer.from(text, "base64");
  return der.length > keyBytes && der[0] === 0x30 && der.includes(Buffer.from([0x06, 0x03, 0x2b, 0x65, 0x70]));
}
