import "server-only";
import { summarize } from "@/lib/limiter/decide";
import type { CheckDecision } from "@/lib/limiter/types";
import type { ConfigHolder } from "@/lib/enforce/config-holder";
import { answerFor, DenyCache } from "@/lib/enforce/deny-cache";
import { decisionSink } from "@/lib/enforce/decision-sink";
import { degradedBody, earlyBody, limiterBody } from "@/lib/enforce/decision-body";
import {
  buildShape,
  CheckShapes,
  degradedAnswer,
  keyParts,
  resolvedFor,
  shapeKeyOf,
  subjectParts,
} from "@/lib/enforce/check-shapes";
import { HotChecks, hotKeyOf, type HotCheck } from "@/lib/enforce/hot-checks";
import { renderBody, type RenderedDecision } from "@/lib/enforce/render/rendered";
import type { LimiterStore, StoreResult } from "@/lib/enforce/limiter-store";
import {
  refused,
  resolvedOf,
  resolveTarget,
  type Early,
  type KeyCaches,
  type TargetResolution,
} from "@/lib/enforce/resolve";
import type { KeyRecord } from "@/lib/enforce/config-index";
import { mayCheck, type Caller } from "@/lib/enforce/service-auth";
import type { PreparedCheck } from "@/lib/limiter/evaluate-many";
import { TtlLru } from "@/lib/enforce/ttl-lru";
import { RouteCache } from "@/lib/enforce/route-cache";
import { renderBlock } from "@/lib/enforce/override-shape";
import { subjectShape } from "@/lib/enforce/override-variants";
import type { CheckInput, ErrorBody } from "@/lib/enforce/types";
import { checkMetrics } from "@/lib/metrics/check-metrics";
import type { LocalLimits } from "@/lib/enforce/local/local-limits";
import { UNMATCHED_ROUTE_MARK } from "@/lib/shared/usage-route";

// The check pipeline, transport-free: resolve from memory, answer from a local cache when
// that is exact, else one limiter call (degraded on failure), then report to the sink.

export type CheckAnswer = { status: 200; decision: RenderedDecision } | { status: 403; body: ErrorBody };

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
    routes: new RouteCache(),
  };
  readonly denied = new DenyCache();
  /** what checks of this version resolved to apart from their subject (check-shapes.ts) */
  readonly shapes = new CheckShapes();
  /** whole checks of this version in front of the shapes, subject apart (hot-checks.ts) */
  readonly hot = new HotChecks();
  /**
   * The same entries by shape and key instead of raw input: checks that differ in their
   * route id (or apiKey spelling) but not in what they resolve to share one, so a miss above
   * costs the resolution and no new parts (issue 20, bench row (s2)).
   */
  readonly byShape = new HotChecks();

  constructor(
    private readonly holder: ConfigHolder,
    private readonly store: LimiterStore,
    /** checks with local limits go there (lib/enforce/local/); without it they count exactly */
    private readonly local: LocalLimits | null = null,
  ) {
    checkMetrics.configVersion(holder.current.version);
    holder.onVersion((index) => {
      // Keys, limits or owners may have changed: nothing cached stays exact.
      this.keys.unknown.clear();
      this.keys.known.clear();
      this.keys.routes.clear();
      this.shapes.clear();
      this.hot.clear();
      this.byShape.clear();
      this.denied.clear();
      checkMetrics.configVersion(index.version);
    });
    // Counters cleared elsewhere: a stored denial may no longer hold.
    const forgetDenials = () => this.denied.clear();
    holder.onCountersReset(forgetDenials);
    // after a Redis restart local counts are pushed back (docs/algorithms.md, Redis down)
    if (local !== null) holder.onCountersReset((cause) => cause === "admin" && local.clear());
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
    const hot = this.hot.get(hotKey, config.version);
    if (hot !== undefined) {
      if (mayCheck(caller, hot.resolved.tenant.slug)) this.limited(hot, input, done, timeoutMs);
      else this.refuse(refused(input, hot.resolved.tenant.slug), input, config.version, done);
      return;
    }
    const target: TargetResolution = resolveTarget(input, caller, config, this.keys);
    if (target.kind !== "target") {
      this.refuse(target, input, config.version, done);
      return;
    }
    const shapeKey = shapeKeyOf(target, input.subject !== null);
    const { key } = target;
    const byShapeKey = `${shapeKey}\n${key?.id ?? ""}`;
    let entry = this.byShape.get(byShapeKey, config.version);
    if (entry === undefined) {
      let shape = this.shapes.get(shapeKey);
      if (!shape) {
        try {
          shape = buildShape(target, config.snapshot, input.subject !== null, config.version);
        } catch (error) {
          // rules the limiter cannot count exactly (validation refuses them at import)
          console.error("[sluice] a limit cannot be evaluated:", error);
          const resolved = resolvedOf(target, config.snapshot, input.subject);
          const rendered = renderBody(degradedBody(resolved, config.version));
          done(this.answer(rendered, resolved.tenant.id, resolved.keyId, resolved.route, input));
          return;
        }
        this.shapes.remember(shapeKey, shape);
      }
      entry = {
        version: config.version,
        shape,
        key,
        target,
        resolved: resolvedFor(shape, key),
        base: keyParts(shape, key),
        used: false,
      };
      this.byShape.remember(byShapeKey, entry);
    }
    if (this.hot.admits(hotKey)) this.hot.remember(hotKey, entry);
    this.limited(entry, input, done, timeoutMs);
  }

  /** A check that needs no counter: an early answer (unknown key...) or a refusal. */
  private refuse(
    target: Early | { kind: "forbidden"; tenantSlug: string },
    input: CheckInput,
    version: number,
    done: (answer: CheckAnswer) => void,
  ): void {
    if (target.kind === "forbidden") {
      done(forbiddenAnswer(target.tenantSlug, input));
      return;
    }
    if (target.cached) checkMetrics.cacheHit("negative");
    const rendered = renderBody(earlyBody(target, version));
    done(this.answer(rendered, target.tenant?.id ?? null, target.keyId, target.route, input));
  }

  /** A check with its limits: from the deny cache, local counts or one limiter call. */
  private limited(
    hot: HotCheck,
    input: CheckInput,
    done: (answer: CheckAnswer) => void,
    timeoutMs: number | undefined,
  ): void {
    const { key, version } = hot;
    let { shape: entry, resolved, base } = hot;
    if (entry.overrides !== null) {
      // temporary overrides (override-shape.ts): a subject's own shape, or a block
      const { snapshot } = this.holder.current;
      const variant = subjectShape(entry, entry.overrides, hot.target, input.subject, snapshot, version);
      if (variant.overrides?.block) {
        const rendered = renderBlock(variant.overrides.block, key?.name ?? null, Date.now());
        const tenantId = variant.resolved.tenant.id;
        done(this.answer(rendered, tenantId, key?.id ?? null, variant.resolved.route, input));
        return;
      }
      if (variant !== entry) {
        entry = variant;
        resolved = resolvedFor(variant, key);
        base = keyParts(variant, key);
      }
    }
    if (entry.specs.length === 0) {
      const rendered = renderBody(limiterBody(resolved, NO_LIMITS, version));
      done(this.answer(rendered, resolved.tenant.id, resolved.keyId, resolved.route, input));
      return;
    }
    const parts = subjectParts(entry, base, input.subject);
    const { keys, specs, signature, template } = parts;
    if (resolved.matched.hasLocal && this.local !== null) {
      const answer = (rendered: RenderedDecision) =>
        done(this.answer(rendered, resolved.tenant.id, resolved.keyId, resolved.route, input));
      this.local.decide({ shape: entry, parts, key }, input, version, answer, timeoutMs);
      return;
    }
    const hit = signature === null ? undefined : this.denied.lookup(signature, input.cost);
    if (hit) {
      checkMetrics.cacheHit("deny");
      const rendered = answerFor(hit, performance.now());
      done(this.answer(rendered, resolved.tenant.id, resolved.keyId, resolved.route, input));
      return;
    }
    const sentAt = performance.now();
    const prepared: PreparedCheck = {
      check: { limits: specs, request: { cost: input.cost, dryRun: input.dryRun } },
      keys,
      rules: entry.rules,
    };
    this.store.check(
      prepared,
      (result: StoreResult) => {
        let rendered: RenderedDecision;
        if (result.ok) {
          try {
            rendered = template.render(result.reply, result.at);
          } catch (error) {
            // a reply that does not fit: Redis' verdict is unknown, as if it had failed
            console.error("[sluice] unreadable limiter reply:", error);
            rendered = degradedAnswer(entry, key, version);
          }
          if (signature !== null && !rendered.allowed) {
            const denial = { template, reply: result.reply, at: result.at, rendered };
            this.denied.remember(signature, input.cost, denial, sentAt);
          }
        } else {
          rendered = degradedAnswer(entry, key, version);
        }
        done(this.answer(rendered, resolved.tenant.id, resolved.keyId, resolved.route, input));
      },
      timeoutMs,
    );
  }

  private answer(
    rendered: RenderedDecision,
    tenantId: string | null,
    keyId: string | null,
    route: string | null,
    input: CheckInput,
  ): CheckAnswer {
    decisionSink().record({
      tenantId,
      keyId,
      // a route that was sent but matched nothing is told apart from none in usage views
      route: route ?? (input.route === null ? null : UNMATCHED_ROUTE_MARK),
      subject: input.subject,
      outcome: rendered.outcome,
      reason: rendered.reason,
      cost: input.cost,
      dryRun: input.dryRun,
      body: rendered.json,
    });
    return { status: 200, decision: rendered };
  }
}
