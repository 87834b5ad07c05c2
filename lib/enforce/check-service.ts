import "server-only";
import { summarize } from "@/lib/limiter/decide";
import type { CheckDecision } from "@/lib/limiter/types";
import type { ConfigHolder } from "@/lib/enforce/config-holder";
import { answerFor, DenyCache } from "@/lib/enforce/deny-cache";
import { recordedAnswer, refusedAnswer, renderedReply, type CheckAnswer } from "@/lib/enforce/check-answer";
import { degradedBody, limiterBody } from "@/lib/enforce/decision-body";
import { buildShape, resolvedFor, shapeTagOf } from "@/lib/enforce/check-shapes";
import { checkKeys, denySignature, keyJsonOf } from "@/lib/enforce/check-parts";
import { ShapeTable } from "@/lib/enforce/shape-table";
import { HotChecks, hotKeyOf, type HotCheck } from "@/lib/enforce/hot-checks";
import { renderBody, type RenderedDecision } from "@/lib/enforce/render/rendered";
import type { LimiterStore, StoreResult } from "@/lib/enforce/limiter-store";
import {
  refused,
  resolvedOf,
  resolveTarget,
  type KeyCaches,
  type TargetResolution,
} from "@/lib/enforce/resolve";
import type { KeyRecord } from "@/lib/enforce/config-index";
import { mayCheck, type Caller } from "@/lib/enforce/service-auth";
import type { PreparedCheck } from "@/lib/limiter/evaluate-many";
import { TtlLru } from "@/lib/enforce/ttl-lru";
import { overriddenShape } from "@/lib/enforce/override-variants";
import type { CheckInput } from "@/lib/enforce/types";
import { checkMetrics } from "@/lib/metrics/check-metrics";
import type { LocalLimits } from "@/lib/enforce/local/local-limits";

// The check pipeline, transport-free: resolve from memory, answer from a local cache when
// that is exact, else one limiter call (degraded on failure), then report to the sink.

const NO_LIMITS: CheckDecision = summarize([]);

export class CheckService {
  /** raw apiKey values known (not) to exist in the current version; see resolve.ts */
  readonly keys: KeyCaches = {
    unknown: new TtlLru<true>(10_000, 10_000),
    known: new TtlLru<KeyRecord>(10_000, 60_000),
  };
  readonly denied = new DenyCache();
  /** what checks of this version resolved to apart from their subject (check-shapes.ts) */
  readonly shapes = new ShapeTable();
  /** whole checks of this version in front of the shapes, subject apart (hot-checks.ts) */
  readonly hot = new HotChecks();

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
      this.shapes.clear();
      this.hot.clear();
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
    // while whole checks rarely repeat, most checks skip the cache (hot-checks.ts)
    const consulted = this.hot.consults();
    const hotKey = consulted ? hotKeyOf(input) : "";
    const hot = consulted ? this.hot.get(hotKey, config.version) : undefined;
    if (hot !== undefined) {
      const slug = hot.shape.resolved.tenant.slug;
      if (mayCheck(caller, slug)) this.limited(hot, input, done, timeoutMs);
      else done(refusedAnswer(refused(input, slug), input, config.version));
      return;
    }
    const target: TargetResolution = resolveTarget(input, caller, config, this.keys);
    if (target.kind !== "target") {
      done(refusedAnswer(target, input, config.version));
      return;
    }
    const hasSubject = input.subject !== null;
    const slot = this.shapes.slot(target.tenant.slug, target.routes);
    const tag = shapeTagOf(target);
    let shape = this.shapes.get(slot, tag, hasSubject);
    if (!shape) {
      try {
        shape = buildShape(target, config.snapshot, hasSubject, config.version);
      } catch (error) {
        // rules the limiter cannot count exactly (validation refuses them at import)
        console.error("[sluice] a limit cannot be evaluated:", error);
        const resolved = resolvedOf(target, config.snapshot, input.subject);
        const rendered = renderBody(degradedBody(resolved, config.version, "limiter_error"));
        done(recordedAnswer(rendered, resolved.tenant.id, resolved.keyId, resolved.route, input));
        return;
      }
      this.shapes.remember(slot, tag, hasSubject, shape);
    }
    const entry: HotCheck = {
      version: config.version,
      shape,
      key: target.key,
      target,
      keys: null,
      keyJson: null,
    };
    if (consulted && this.hot.admits(hotKey)) {
      // what a repeat of this check would build again
      entry.keys = checkKeys(shape, target.key, null);
      entry.keyJson = keyJsonOf(target.key);
      this.hot.remember(hotKey, entry);
    }
    this.limited(entry, input, done, timeoutMs);
  }

  /** A check with its limits: from the deny cache, local counts or one limiter call. */
  private limited(
    hot: HotCheck,
    input: CheckInput,
    done: (answer: CheckAnswer) => void,
    timeoutMs: number | undefined,
  ): void {
    const { key, version } = hot;
    let { shape, keys: base } = hot;
    if (shape.overrides !== null) {
      // temporary overrides: a subject's own shape, or a block answered there
      const variant = overriddenShape(hot, shape.overrides, input, this.holder.current.snapshot, done);
      if (variant === null) return;
      if (variant !== shape) base = null;
      shape = variant;
    }
    const { tenant, route } = shape.resolved;
    const keyId = key?.id ?? null;
    const keyJson = hot.keyJson ?? keyJsonOf(key);
    if (shape.specs.length === 0) {
      const rendered = renderBody(limiterBody(resolvedFor(shape, key), NO_LIMITS, version));
      done(recordedAnswer(rendered, tenant.id, keyId, route, input));
      return;
    }
    if (shape.resolved.matched.hasLocal && this.local !== null) {
      const answer = (rendered: RenderedDecision) =>
        done(recordedAnswer(rendered, tenant.id, keyId, route, input));
      this.local.decide({ shape, key }, input, version, answer, timeoutMs);
      return;
    }
    // the signature is built only when a denial may be stored (most traffic has none)
    const signature = this.denied.empty ? null : denySignature(shape, key, input.subject);
    const hit = signature === null ? undefined : this.denied.lookup(signature, input.cost);
    if (hit) {
      checkMetrics.cacheHit("deny");
      const rendered = answerFor(hit, performance.now());
      done(recordedAnswer(rendered, tenant.id, keyId, route, input));
      return;
    }
    const sentAt = performance.now();
    const prepared: PreparedCheck = {
      // the shape's specs: the store reads their tenant only, the keys carry the owners
      check: { limits: shape.specs, request: { cost: input.cost, dryRun: input.dryRun } },
      keys: checkKeys(shape, key, input.subject, base),
      rules: shape.rules,
    };
    const counted = shape;
    this.store.check(
      prepared,
      (result: StoreResult) => {
        const rendered = renderedReply(result, counted, key, keyJson, version);
        if (result.ok && !rendered.allowed) {
          const denied = signature ?? denySignature(counted, key, input.subject);
          if (denied !== null) {
            const denial = {
              template: counted.template,
              keyJson,
              reply: result.reply,
              at: result.at,
              rendered,
            };
            this.denied.remember(denied, input.cost, denial, sentAt);
          }
        }
        done(recordedAnswer(rendered, tenant.id, keyId, route, input));
      },
      timeoutMs,
    );
  }
}
