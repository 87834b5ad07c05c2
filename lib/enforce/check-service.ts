import "server-only";
import { summarize } from "@/lib/limiter/decide";
import type { CheckDecision } from "@/lib/limiter/types";
import type { ConfigHolder } from "@/lib/enforce/config-holder";
import { answerFor, DenyCache } from "@/lib/enforce/deny-cache";
import { decisionSink } from "@/lib/enforce/decision-sink";
import { degradedBody, earlyBody, limiterBody, outcomeOf } from "@/lib/enforce/decision-body";
import type { LimiterStore, StoreResult } from "@/lib/enforce/limiter-store";
import { resolveCheck, type KeyCaches, type Resolution, type Resolved } from "@/lib/enforce/resolve";
import type { KeyRecord } from "@/lib/enforce/config-index";
import type { Caller } from "@/lib/enforce/service-auth";
import { TtlLru } from "@/lib/enforce/ttl-lru";
import type { CheckInput, DecisionBody, ErrorBody } from "@/lib/enforce/types";
import { checkMetrics } from "@/lib/metrics/check-metrics";

// The check pipeline, transport-free: resolve from memory, answer from a local cache when
// that is exact, else one limiter call (degraded on failure), then report to the sink.

/** `shared`: the body is reused by other answers (deny cache hits): its rendering may be too. */
export type CheckAnswer =
  | { status: 200; body: DecisionBody; shared?: boolean }
  | { status: 403; body: ErrorBody };

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
  /** raw apiKey values known (not) to exist in the current version; see resolve.ts */
  readonly keys: KeyCaches = {
    unknown: new TtlLru<true>(10_000, 10_000),
    known: new TtlLru<KeyRecord>(10_000, 60_000),
  };
  readonly denied = new DenyCache();

  constructor(
    private readonly holder: ConfigHolder,
    private readonly store: LimiterStore,
  ) {
    checkMetrics.configVersion(holder.current.version);
    holder.onVersion((index) => {
      // Keys, limits or owners may have changed: nothing cached stays exact.
      this.keys.unknown.clear();
      this.keys.known.clear();
      this.denied.clear();
      checkMetrics.configVersion(index.version);
    });
    // Counters cleared elsewhere: a stored denial may no longer hold.
    const forgetDenials = () => this.denied.clear();
    holder.onCountersReset(forgetDenials);
    store.onReconnect(forgetDenials);
  }

  /**
   * One check. Answers synchronously when no Redis call is needed (early decisions, the deny
   * cache, no limits), else a promise: the lean path then allocates no promise at all for
   * them, which matters because Next in the same process makes every promise dearer (async
   * context tracking). `timeoutMs` (batches) overrides the store's check timeout.
   */
  decide(input: CheckInput, caller: Caller, timeoutMs?: number): CheckAnswer | Promise<CheckAnswer> {
    const config = this.holder.current;
    const resolution: Resolution = resolveCheck(input, caller, config, this.keys);
    if (resolution.kind === "forbidden") {
      return {
        status: 403,
        body: forbidden(resolution.tenantSlug, input.apiKey !== null ? "apiKey" : "tenant"),
      };
    }
    if (resolution.kind === "early") {
      if (resolution.cached) checkMetrics.cacheHit("negative");
      return this.answer(
        earlyBody(resolution, config.version),
        resolution.tenant?.id ?? null,
        resolution,
        input,
      );
    }
    const { specs, hasShadow } = resolution.matched;
    if (specs.length === 0) {
      return this.answer(
        limiterBody(resolution, NO_LIMITS, config.version),
        resolution.tenant.id,
        resolution,
        input,
      );
    }
    const signature = hasShadow ? null : signatureOf(resolution, input);
    const hit = signature === null ? undefined : this.denied.lookup(signature, input.cost);
    if (hit) {
      checkMetrics.cacheHit("deny");
      const body = answerFor(hit, performance.now(), (decision) =>
        limiterBody(resolution, decision, config.version),
      );
      this.report(body, resolution.tenant.id, resolution.keyId, input);
      return { status: 200, body, shared: true };
    }
    const sentAt = performance.now();
    return this.store
      .check(specs, { cost: input.cost, dryRun: input.dryRun }, timeoutMs)
      .then((result: StoreResult) => {
        let body: DecisionBody;
        if (result.ok) {
          body = limiterBody(resolution, result.decision, config.version);
          if (signature !== null) this.denied.remember(signature, input.cost, result.decision, sentAt);
        } else {
          body = degradedBody(resolution, config.version);
        }
        return this.answer(body, resolution.tenant.id, resolution, input);
      });
  }

  private answer(
    body: DecisionBody,
    tenantId: string | null,
    resolution: { keyId: string | null },
    input: CheckInput,
  ): CheckAnswer {
    this.report(body, tenantId, resolution.keyId, input);
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
