import "server-only";
import { summarize } from "@/lib/limiter/decide";
import type { CheckDecision } from "@/lib/limiter/types";
import type { ConfigHolder } from "@/lib/enforce/config-holder";
import { agedDecision, DenyCache } from "@/lib/enforce/deny-cache";
import { decisionSink } from "@/lib/enforce/decision-sink";
import { degradedBody, earlyBody, limiterBody, outcomeOf } from "@/lib/enforce/decision-body";
import type { LimiterStore, StoreResult } from "@/lib/enforce/limiter-store";
import { resolveCheck, type Resolution, type Resolved } from "@/lib/enforce/resolve";
import type { Caller } from "@/lib/enforce/service-auth";
import { TtlLru } from "@/lib/enforce/ttl-lru";
import type { CheckInput, DecisionBody, ErrorBody } from "@/lib/enforce/types";
import { checkMetrics } from "@/lib/metrics/check-metrics";

// The check pipeline, transport-free: resolve from memory, answer from a local cache when
// that is exact, else one limiter call (degraded on failure), then report to the sink.

export type CheckAnswer = { status: 200; body: DecisionBody } | { status: 403; body: ErrorBody };

const NO_LIMITS: CheckDecision = summarize([]);

function forbidden(tenantSlug: string, path: string): ErrorBody {
  return {
    error: {
      code: "forbidden",
      message: `This service token may not check for tenant ${tenantSlug}; use a token that lists it.`,
      path,
    },
  };
}

/** Same tenant, key, route and subject: the same counters under one config version. */
const signatureOf = (resolved: Resolved, input: CheckInput): string =>
  `${resolved.tenant.id}\n${resolved.keyId ?? ""}\n${resolved.route ?? ""}\n${input.subject ?? ""}`;

export class CheckService {
  /** raw apiKey values known not to exist in the current version */
  readonly unknownKeys = new TtlLru<true>(10_000, 10_000);
  readonly denied = new DenyCache();

  constructor(
    private readonly holder: ConfigHolder,
    private readonly store: LimiterStore,
  ) {
    checkMetrics.configVersion(holder.current.version);
    holder.onVersion((index) => {
      // Keys, limits or owners may have changed: nothing cached stays exact.
      this.unknownKeys.clear();
      this.denied.clear();
      checkMetrics.configVersion(index.version);
    });
    // Counters cleared elsewhere: a stored denial may no longer hold.
    const forgetDenials = () => this.denied.clear();
    holder.onCountersReset(forgetDenials);
    store.onReconnect(forgetDenials);
  }

  /** One check. `timeoutMs` (batches) overrides the store's check timeout. */
  async decide(input: CheckInput, caller: Caller, timeoutMs?: number): Promise<CheckAnswer> {
    const config = this.holder.current;
    const resolution: Resolution = resolveCheck(input, caller, config, this.unknownKeys);
    if (resolution.kind === "forbidden") {
      return {
        status: 403,
        body: forbidden(resolution.tenantSlug, input.apiKey !== null ? "apiKey" : "tenant"),
      };
    }
    let body: DecisionBody;
    if (resolution.kind === "early") {
      if (resolution.cached) checkMetrics.cacheHit("negative");
      body = earlyBody(resolution, config.version);
      this.report(body, resolution.tenant?.id ?? null, resolution.keyId, input);
      return { status: 200, body };
    }
    const { specs, hasShadow } = resolution.matched;
    if (specs.length === 0) {
      body = limiterBody(resolution, NO_LIMITS, config.version);
    } else {
      const signature = hasShadow ? null : signatureOf(resolution, input);
      const hit = signature === null ? undefined : this.denied.lookup(signature, input.cost);
      if (hit) {
        checkMetrics.cacheHit("deny");
        body = limiterBody(resolution, agedDecision(hit, performance.now()), config.version);
      } else {
        const sentAt = performance.now();
        const result: StoreResult = await this.store.check(
          specs,
          { cost: input.cost, dryRun: input.dryRun },
          timeoutMs,
        );
        if (result.ok) {
          body = limiterBody(resolution, result.decision, config.version);
          if (signature !== null) this.denied.remember(signature, input.cost, result.decision, sentAt);
        } else {
          body = degradedBody(resolution, config.version);
        }
      }
    }
    this.report(body, resolution.tenant.id, resolution.keyId, input);
    return { status: 200, body };
  }

  private report(body: DecisionBody, tenantId: string | null, keyId: string | null, input: CheckInput): void {
    decisionSink().record({
      tenantId,
      keyId,
      route: body.route,
      subject: input.subject,
      outcome: outcomeOf(body),
      reason: body.reason,
      cost: input.cost,
      dryRun: input.dryRun,
    });
  }
}
