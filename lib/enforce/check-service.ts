import "server-only";
import { summarize } from "@/lib/limiter/decide";
import type { CheckDecision } from "@/lib/limiter/types";
import type { ConfigHolder } from "@/lib/enforce/config-holder";
import { answerFor, DenyCache } from "@/lib/enforce/deny-cache";
import { decisionSink } from "@/lib/enforce/decision-sink";
import { degradedBody, earlyBody, limiterBody, outcomeOf } from "@/lib/enforce/decision-body";
import { HotResolutions, hotKeyOf } from "@/lib/enforce/hot-resolutions";
import type { LimiterStore, StoreResult } from "@/lib/enforce/limiter-store";
import { resolveCheck, type KeyCaches, type Resolution, type Resolved } from "@/lib/enforce/resolve";
import type { KeyRecord } from "@/lib/enforce/config-index";
import { mayCheck, type Caller } from "@/lib/enforce/service-auth";
import type { PreparedCheck } from "@/lib/limiter/evaluate-many";
import { TtlLru } from "@/lib/enforce/ttl-lru";
import type { CheckInput, DecisionBody, ErrorBody } from "@/lib/enforce/types";
import { checkMetrics } from "@/lib/metrics/check-metrics";

// The check pipeline, transport-free: resolve from memory, answer from a local cache when
// that is exact, else one limiter call (degraded on failure), then report to the sink.

/** `shared`: the body is reused by other answers (deny cache hits): its rendering may be too. */
export type CheckAnswer =
  { status: 200; body: DecisionBody; shared?: boolean } | { status: 403; body: ErrorBody };

const NO_LIMITS: CheckDecision = summarize([]);

function forbiddenAnswer(tenantSlug: string, input: CheckInput): CheckAnswer {
  return {
    status: 403,
    body: {
      error: {
        code: "forbidden",
        message: `This service token may not check for tenant ${tenantSlug}; use a token that lists it.`,
        path: input.apiKey !== null ? "apiKey" : "tenant",
      },
    },
  };
}

export class CheckService {
  /** raw apiKey values known (not) to exist in the current version; see resolve.ts */
  readonly keys: KeyCaches = {
    unknown: new TtlLru<true>(10_000, 10_000),
    known: new TtlLru<KeyRecord>(10_000, 60_000),
  };
  readonly denied = new DenyCache();
  /** checks seen in this version, resolved and prepared for the limiter (hot-resolutions.ts) */
  readonly hot = new HotResolutions();

  constructor(
    private readonly holder: ConfigHolder,
    private readonly store: LimiterStore,
  ) {
    checkMetrics.configVersion(holder.current.version);
    holder.onVersion((index) => {
      // Keys, limits or owners may have changed: nothing cached stays exact.
      this.keys.unknown.clear();
      this.keys.known.clear();
      this.hot.clear();
      this.denied.clear();
      checkMetrics.configVersion(index.version);
    });
    // Counters cleared elsewhere: a stored denial may no longer hold.
    const forgetDenials = () => this.denied.clear();
    holder.onCountersReset(forgetDenials);
    store.onReconnect(forgetDenials);
  }

  /**
   * One check, answered through `done`: at once when no Redis call is needed (early
   * decisions, the deny cache, no limits), else when the limiter answers or gives up.
   * Callbacks rather than promises: promises cost more per check, all the more with Next in
   * the same process (async context tracking). `timeoutMs` (batches) overrides the store's
   * check timeout.
   */
  decide(input: CheckInput, caller: Caller, done: (answer: CheckAnswer) => void, timeoutMs?: number): void {
    const config = this.holder.current;
    const hotKey = hotKeyOf(input);
    let hot = this.hot.get(hotKey, Date.now());
    let resolved: Resolved;
    if (hot) {
      resolved = hot.resolved;
      if (!mayCheck(caller, resolved.tenant.slug)) {
        done(forbiddenAnswer(resolved.tenant.slug, input));
        return;
      }
    } else {
      const resolution: Resolution = resolveCheck(input, caller, config, this.keys);
      if (resolution.kind === "forbidden") {
        done(forbiddenAnswer(resolution.tenantSlug, input));
        return;
      }
      if (resolution.kind === "early") {
        if (resolution.cached) checkMetrics.cacheHit("negative");
        done(
          this.answer(
            earlyBody(resolution, config.version),
            resolution.tenant?.id ?? null,
            resolution,
            input,
          ),
        );
        return;
      }
      resolved = resolution;
    }
    const { specs } = resolved.matched;
    if (specs.length === 0) {
      done(
        this.answer(limiterBody(resolved, NO_LIMITS, config.version), resolved.tenant.id, resolved, input),
      );
      return;
    }
    if (!hot) {
      try {
        hot = this.hot.remember(hotKey, resolved, input);
      } catch (error) {
        // rules the limiter cannot count exactly (validation refuses them at import)
        console.error("[sluice] a limit cannot be evaluated:", error);
        done(this.answer(degradedBody(resolved, config.version), resolved.tenant.id, resolved, input));
        return;
      }
    }
    const { signature } = hot;
    const hit = signature === null ? undefined : this.denied.lookup(signature, input.cost);
    if (hit) {
      checkMetrics.cacheHit("deny");
      const body = answerFor(hit, performance.now(), (decision) =>
        limiterBody(resolved, decision, config.version),
      );
      this.report(body, resolved.tenant.id, resolved.keyId, input);
      done({ status: 200, body, shared: true });
      return;
    }
    const sentAt = performance.now();
    const prepared: PreparedCheck = {
      check: { limits: specs, request: { cost: input.cost, dryRun: input.dryRun } },
      keys: hot.keys,
      rules: hot.rules,
    };
    this.store.check(
      prepared,
      (result: StoreResult) => {
        let body: DecisionBody;
        if (result.ok) {
          body = limiterBody(resolved, result.decision, config.version);
          if (signature !== null) this.denied.remember(signature, input.cost, result.decision, sentAt);
        } else {
          body = degradedBody(resolved, config.version);
        }
        done(this.answer(body, resolved.tenant.id, resolved, input));
      },
      timeoutMs,
    );
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
