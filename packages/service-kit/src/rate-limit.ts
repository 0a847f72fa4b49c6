/** A token bucket per API key, per process: the gateway's for tool calls, each REST app's for its requests. */
export interface RateLimitOptions {
  burst: number;
  perSecond: number;
  /**
   * At most this many buckets are kept (default: no bound). For keys a caller picks (an address), so memory cannot
   * grow without end: when the bound is reached, the buckets that have refilled to the burst — the same as a new
   * one — are dropped, and if none has, the oldest.
   */
  maxKeys?: number;
}

export class RateLimiter {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  readonly #options: RateLimitOptions;

  constructor(options: RateLimitOptions) {
    this.#options = options;
  }

  /** 0 when the call may go ahead, else how many ms until a token is available. */
  take(key: string, now = performance.now()): number {
    const { burst, perSecond } = this.#options;
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      if (this.#options.maxKeys !== undefined && this.#buckets.size >= this.#options.maxKeys) this.#makeRoom(now);
      bucket = { tokens: burst, at: now };
    }
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - bucket.tokens) / perSecond) * 1000);
  }

  #makeRoom(now: number): void {
    const { burst, perSecond } = this.#options;
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * perSecond >= burst) this.#buckets.delete(key);
    }
    if (this.#buckets.size >= (this.#options.maxKeys ?? Infinity)) {
      const oldest = this.#buckets.keys().next().value;
      if (oldest !== undefined) this.#buckets.delete(oldest);
    }
  }
}
