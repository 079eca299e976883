/**
 * Discord's per-route rate limits by the fake's clock: each route template with its major parameter
 * (the channel) is a bucket of `limit` requests per `windowMs`, named by an `X-RateLimit-Bucket` hash
 * per template. Every answer carries the bucket's headers; a request into an empty bucket before its
 * reset gets 429 and is recorded as a violation: a client that reads the headers never makes one.
 */
import type { Clock } from "../../../core/base/mod.ts";

/** How many requests a bucket holds and how long until it refills. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** A request made into an empty bucket before its reset. */
export interface RateLimitViolation {
  route: string;
  bucket: string;
  /** When it came and when the bucket was to reset, by the fake's clock. */
  at: number;
  resetAt: number;
}

interface Bucket {
  remaining: number;
  resetAt: number;
}

/** What taking a request from a bucket gave: its headers, and whether it was over the limit. */
export interface Taken {
  headers: Record<string, string>;
  /** Seconds until the bucket refills when the request was over the limit. */
  retryAfter?: number;
}

/** Five per five seconds, as a channel's message routes have. */
export const DEFAULT_RATE_LIMIT: RateLimit = { limit: 5, windowMs: 5_000 };

export class RateLimits {
  readonly violations: RateLimitViolation[] = [];
  #clock: Clock;
  #limit: RateLimit;
  #buckets = new Map<string, Bucket>();
  #hashes = new Map<string, string>();

  constructor(clock: Clock, limit: RateLimit) {
    this.#clock = clock;
    this.#limit = limit;
  }

  /** Takes one request of `route` (a template) on `major` from its bucket. */
  take(route: string, major: string): Taken {
    const bucket = this.#bucket(route, major);
    const now = this.#clock.now();
    if (bucket.remaining === 0) {
      this.violations.push({ route, bucket: this.hash(route), at: now, resetAt: bucket.resetAt });
      return { headers: this.#headers(route, bucket), retryAfter: (bucket.resetAt - now) / 1000 };
    }
    bucket.remaining--;
    return { headers: this.#headers(route, bucket) };
  }

  /** Empties `route`'s bucket on `major` for `seconds`, as a 429 from Discord's side does. */
  exhaust(route: string, major: string, seconds: number): Record<string, string> {
    const bucket = this.#bucket(route, major);
    bucket.remaining = 0;
    bucket.resetAt = this.#clock.now() + seconds * 1000;
    return this.#headers(route, bucket);
  }

  /** The bucket hash of a route template. */
  hash(route: string): string {
    let hash = this.#hashes.get(route);
    if (!hash) this.#hashes.set(route, hash = crypto.randomUUID().replaceAll("-", ""));
    return hash;
  }

  #bucket(route: string, major: string): Bucket {
    const key = `${route} ${major}`;
    const now = this.#clock.now();
    let bucket = this.#buckets.get(key);
    if (!bucket || now >= bucket.resetAt) {
      bucket = { remaining: this.#limit.limit, resetAt: now + this.#limit.windowMs };
      this.#buckets.set(key, bucket);
    }
    return bucket;
  }

  #headers(route: string, bucket: Bucket): Record<string, string> {
    const after = Math.max(0, bucket.resetAt - this.#clock.now()) / 1000;
    return {
      "x-ratelimit-limit": String(this.#limit.limit),
      "x-ratelimit-remaining": String(bucket.remaining),
      "x-ratelimit-reset": (bucket.resetAt / 1000).toFixed(3),
      "x-ratelimit-reset-after": after.toFixed(3),
      "x-ratelimit-bucket": this.hash(route),
    };
  }
}
