import "server-only";
import { summarize } from "@/lib/check/limiter/decide";
import type { CheckDecision } from "@/lib/check/limiter/types";
import type { ConfigHolder } from "@/lib/check/config-holder";
import { answerFor, DenyCache } from "@/lib/check/deny-cache";
import { recordedAnswer, refusedAnswer, type CheckAnswer } from "@/lib/check/check-answer";
import { degradedBody, limiterBody } from "@/lib/check/decision-body";
import { buildShape, resolvedFor, shapeTagOf } from "@/lib/check/check-shapes";
import { checkKeys, denySignature, keyJsonOf } from "@/lib/check/check-parts";
import { ShapeTable } from "@/lib/check/shape-table";
import { HotChecks, hotKeyOf, type HotCheck } from "@/lib/check/hot-checks";
import { renderBody, type RenderedDecision } from "@/lib/check/render/rendered";
import { flavourOf } from "@/lib/check/headers";
import {
  refused,
  resolvedOf,
  resolveTarget,
  type KeyCaches,
  type KnownKey,
  type TargetResolution,
} from "@/lib/check/resolve";
import { mayCheck, type Caller } from "@/lib/check/service-auth";
import { TtlLru } from "@/lib/check/ttl-lru";
import { TenantMarks, type TenantMark } from "@/lib/check/tenant-marks";
import type { CheckInput } from "@/lib/check/types";
import { checkMetrics } from "@/lib/check/check-metrics";
import type { LocalLimits } from "@/lib/check/local/local-limits";
import { blockAnswer, PenaltyBlocks } from "@/lib/check/penalty-blocks";
import { countedVariant } from "@/lib/check/counted-variant";
import type { LimiterStore } from "@/lib/check/limiter-store";
import { askLimiter } from "@/lib/check/limiter-call";

// The check pipeline, transport-free: resolve from memory, answer from a local cache when
// that is exact, else one limiter call (degraded on failure), then report to the sink.

const NO_LIMITS: CheckDecision = summarize([]);
/** the mark of a whole check that is not kept (never read) */
const NO_MARK: TenantMark = { current: false };

export class CheckService {
  /** per tenant, whether what the caches hold for it still stands (tenant-marks.ts) */
  readonly marks = new TenantMarks();
  /** raw apiKey values known (not) to exist; see resolve.ts */
  readonly keys: KeyCaches = {
    unknown: new TtlLru<true>(10_000, 10_000),
    known: new TtlLru<KnownKey>(10_000, 60_000),
    marks: this.marks,
  };
  /** denials of the shapes in use (deny-cache.ts) */
  readonly denied = new DenyCache();
  /** penalty blocks this server knows (penalty-blocks.ts) */
  readonly blocks = new PenaltyBlocks();
  /** what checks resolved to apart from their subject, per tenant (check-shapes.ts) */
  readonly shapes = new ShapeTable();
  /** whole checks in front of the shapes, subject apart (hot-checks.ts) */
  readonly hot = new HotChecks();

  constructor(
    private readonly holder: ConfigHolder,
    private readonly store: LimiterStore,
    /** checks with local limits go there (lib/enforce/local/); without it they count exactly */
    private readonly local: LocalLimits | null = null,
  ) {
    checkMetrics.configVersion(holder.current.version);
    holder.onVersion((index, touched) => {
      this.changed(touched);
      checkMetrics.configVersion(index.version);
    });
    // Counters cleared elsewhere: a stored denial may no longer hold.
    const forgetDenials = () => this.denied.clear();
    // a lift removes blocks only: the denials stored stand
    holder.onCountersReset((cause) => (cause === "lift" ? this.blocks.clear() : forgetDenials()));
    // after a Redis restart local counts are pushed back (docs/algorithms.md, Redis down)
    if (local !== null) holder.onCountersReset((cause) => cause === "admin" && local.clear());
    store.onReconnect(forgetDenials);
  }

  /**
   * A change to the tenants `touched` (null: possibly all, a global part or a whole load):
   * what the caches hold for them goes, or reads as absent (their marks retired: the whole
   * checks, known keys; the deny cache answers only for the shape a denial was made with).
   * Other tenants' entries stay exact: their compiled tenant, keys and the route patterns
   * are the very objects they were made from. The negative cache of apiKey values always
   * goes: a value not found has no tenant, any change may have added it as a key, and
   * refilling costs a SHA-256 per value seen again.
   */
  private changed(touched: ReadonlySet<string> | null): void {
    this.keys.unknown.clear();
    if (touched !== null) {
      this.marks.retire(touched);
      this.shapes.forget(touched);
      return;
    }
    this.marks.retireAll();
    this.keys.known.clear();
    this.shapes.clear();
    this.hot.clear();
    this.denied.clear();
    this.blocks.clear();
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
    const hot = consulted ? this.hot.get(hotKey) : undefined;
    if (hot !== undefined) {
      const slug = hot.shape.resolved.tenant.slug;
      if (mayCheck(caller, slug)) this.limited(hot, input, config.version, done, timeoutMs);
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
        const rendered = renderBody(
          degradedBody(resolved, config.version, "limiter_error"),
          flavourOf(resolved.tenant),
        );
        done(recordedAnswer(rendered, resolved.tenant.id, resolved.keyId, resolved.route, input));
        return;
      }
      this.shapes.remember(slot, tag, hasSubject, shape);
    }
    const entry: HotCheck = {
      mark: NO_MARK,
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
      entry.mark = this.marks.of(target.tenant.slug);
      this.hot.remember(hotKey, entry);
    }
    this.limited(entry, input, config.version, done, timeoutMs);
  }

  /** A check with its limits under config `version`: from the deny cache, local counts or one limiter call. */
  private limited(
    hot: HotCheck,
    input: CheckInput,
    version: number,
    done: (answer: CheckAnswer) => void,
    timeoutMs: number | undefined,
  ): void {
    const { key } = hot;
    let { shape, keys: base } = hot;
    if (input.subject !== null || shape.overrides !== null || shape.calendarUntil !== Infinity) {
      const counted = countedVariant(hot, input, this.holder.current, version, done);
      if (counted === null) return;
      ({ shape, base, input } = counted);
    }
    const { tenant, route } = shape.resolved;
    const keyId = key?.id ?? null;
    const keyJson = hot.keyJson ?? keyJsonOf(key);
    if (shape.specs.length === 0) {
      const rendered = renderBody(
        limiterBody(resolvedFor(shape, key), NO_LIMITS, version),
        flavourOf(tenant),
      );
      done(recordedAnswer(rendered, tenant.id, keyId, route, input));
      return;
    }
    const { hasLease } = shape.resolved.matched;
    // a check that takes a lease counts every limit in Redis: its answer carries the lease
    if (shape.resolved.matched.hasLocal && this.local !== null && !hasLease) {
      const answer = (rendered: RenderedDecision) =>
        done(recordedAnswer(rendered, tenant.id, keyId, route, input));
      this.local.decide({ shape, key }, input, version, answer, timeoutMs);
      return;
    }
    // a check meeting a penalty's counter this server knows blocked: from memory
    const penalties = shape.penalties;
    if (penalties !== null && !this.blocks.empty) {
      const blocked = this.blocks.find(penalties, keyId, input.subject);
      if (blocked !== undefined) {
        checkMetrics.cacheHit("penalty");
        const rendered = blockAnswer(shape, penalties, blocked, keyJson, performance.now(), version);
        done(recordedAnswer(rendered, tenant.id, keyId, route, input));
        return;
      }
    }
    // the signature is built only when a denial may be stored (most traffic has none)
    const signature = this.denied.empty ? null : denySignature(shape, key, input.subject);
    const hit = signature === null ? undefined : this.denied.lookup(signature, input.cost, shape.template);
    if (hit) {
      checkMetrics.cacheHit("deny");
      const rendered = answerFor(hit, performance.now(), version);
      done(recordedAnswer(rendered, tenant.id, keyId, route, input));
      return;
    }
    const memory = { blocks: this.blocks, denied: this.denied };
    askLimiter(this.store, memory, { shape, key, keyJson, base, signature }, input, version, done, timeoutMs);
  }
}
