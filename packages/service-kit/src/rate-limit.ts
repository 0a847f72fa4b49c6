/** A token bucket per API key, per process: the gateway's for tool calls, each REST app's for its requests. */
export interface RateLimitOptions {
  burst: number;
  perSecond: number;
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
    const bucket = this.#buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - bucket.tokens) / perSecond) * 1000);
  }
}
