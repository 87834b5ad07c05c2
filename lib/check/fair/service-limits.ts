import "server-only";
import { errorAnswer, type HttpAnswer } from "@/lib/check/answer";
import type { ServiceLimit } from "@/lib/check/published/service-limit-schema";

// Service limits: Sluice limiting its own callers. A tenant's plan may give it a rate of
// checks per second on each check front (docs/configuration.md, `service`); a token bucket
// per tenant, in this process, takes each check (a batch takes one per check it holds).
// Per front, not across fronts: the limit protects each front's share, and a deployment of
// N fronts behind a balancer serves a tenant up to N times the rate, as it serves N times
// the checks. In memory only: no Redis call on the check path.

interface Bucket {
  tokens: number;
  at: number;
}

export class ServiceLimits {
  private readonly buckets = new Map<string, Bucket>();

  /** Takes `cost` checks from the tenant's bucket: 0 when admitted, else the ms until they would be. */
  take(tenant: string, limit: ServiceLimit, cost: number, now: number): number {
    let bucket = this.buckets.get(tenant);
    if (bucket === undefined) {
      bucket = { tokens: limit.burst, at: now };
      this.buckets.set(tenant, bucket);
    } else {
      const refilled = bucket.tokens + ((now - bucket.at) * limit.checksPerSecond) / 1000;
      bucket.tokens = Math.min(limit.burst, refilled);
      bucket.at = now;
    }
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return 0;
    }
    if (cost > limit.burst) return Infinity;
    return Math.ceil(((cost - bucket.tokens) * 1000) / limit.checksPerSecond);
  }

  /** checks left in the tenant's bucket now (for the RateLimit header) */
  remaining(tenant: string): number {
    return Math.floor(this.buckets.get(tenant)?.tokens ?? 0);
  }
}

/** 429 over the plan's service limit, with the RateLimit fields of draft 11 and Retry-After. */
export function overServiceLimit(limit: ServiceLimit, waitMs: number, remaining: number): HttpAnswer {
  const seconds = Number.isFinite(waitMs) ? Math.max(1, Math.ceil(waitMs / 1000)) : 1;
  const message = Number.isFinite(waitMs)
    ? `This tenant's plan allows ${limit.checksPerSecond} checks a second on each check front (burst ${limit.burst}); retry after ${seconds} s.`
    : `This batch holds more checks than the plan's burst (${limit.burst}); send smaller batches.`;
  return errorAnswer(429, "over_service_limit", message, undefined, {
    "retry-after": String(seconds),
    "ratelimit-policy": `"sluice-service";q=${limit.checksPerSecond};w=1`,
    ratelimit: `"sluice-service";r=${remaining};t=${seconds}`,
  });
}
