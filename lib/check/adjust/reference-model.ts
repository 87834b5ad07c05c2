import type { Algorithm, LimitRule } from "@/lib/shared/limit-types";
import type { LimitSpec } from "@/lib/check/limiter/types";
import { ReferenceLimiter } from "@/lib/check/limiter/reference/model";
import { big, burstOf, max, min, type State } from "@/lib/check/limiter/reference/types";
import { periodBounds } from "@/lib/shared/calendar";
import {
  ADJUST_WINDOW_MS,
  MAX_HELD,
  type AdjustEffect,
  type AdjustRequest,
  type AdjustResult,
} from "@/lib/check/adjust/adjust-terms";

// Adjusting a decided check (docs/algorithms.md, "Adjusting a decided check") in each
// algorithm's own terms: tokens, level, TAT, window counts, logged units. The oracle of
// lua/adjust/*.lua (tests/integration/limiter/adjust-differential.test.ts).

/** A check as the model remembers it for its adjustments: the limits it consumed. */
export interface ModelTicket {
  id: string;
  at: number;
  cost: number;
  limits: readonly LimitSpec[];
}

interface Moved {
  state: State | undefined;
  effect: AdjustEffect;
}

/** A charge saturates at cap (never lowering what is past it), a refund at zero. */
function moved(value: bigint, amount: bigint, cap: bigint): bigint {
  return amount > 0n ? max(value, min(value + amount, cap)) : max(0n, value + amount);
}

function effectOf(old: bigint, now: bigint, wanted: bigint): AdjustEffect {
  return now === old ? "none" : now === wanted ? "applied" : "clamped";
}

type Adjuster = (s: State | undefined, rule: LimitRule, amount: bigint, at: bigint, now: bigint) => Moved;

const W = (rule: LimitRule): bigint => big(rule.windowMs);
const L = (rule: LimitRule): bigint => big(rule.limit);

/** token_bucket: a charge takes tokens (down to none), a refund gives them back (up to B). */
const tokenBucket: Adjuster = (s, rule, amount, _at, now) => {
  const cap = burstOf(rule) * W(rule);
  const tokens = s ? min(cap, (s.tokensW as bigint) + (now - (s.at as bigint)) * L(rule)) : cap;
  const used = cap - tokens;
  const after = moved(used, amount * W(rule), cap);
  return { state: { tokensW: cap - after, at: now }, effect: effectOf(used, after, used + amount * W(rule)) };
};

/** leaky_bucket: the level rises by a charge (up to B) and falls by a refund (to empty). */
const leakyBucket: Adjuster = (s, rule, amount, _at, now) => {
  const level = s ? max(0n, (s.levelW as bigint) - (now - (s.at as bigint)) * L(rule)) : 0n;
  const after = moved(level, amount * W(rule), burstOf(rule) * W(rule));
  return { state: { levelW: after, at: now }, effect: effectOf(level, after, level + amount * W(rule)) };
};

/** gcra: TAT moves by amount*T, never before now nor, by a charge, past now + B*T. */
const gcra: Adjuster = (s, rule, amount, _at, now) => {
  const nowL = now * L(rule);
  const ahead = max(s ? (s.tatL as bigint) : 0n, nowL) - nowL;
  const after = moved(ahead, amount * W(rule), burstOf(rule) * W(rule));
  return { state: { tatL: nowL + after }, effect: effectOf(ahead, after, ahead + amount * W(rule)) };
};

/** fixed_window: the count of the check's window, while it is the current window. */
const fixedWindow: Adjuster = (s, rule, amount, at, now) => {
  const idx = at / W(rule);
  if (now / W(rule) !== idx) return { state: s, effect: "none" };
  const count = s && s.idx === idx ? (s.count as bigint) : 0n;
  const after = moved(count, amount, L(rule));
  return { state: { idx, count: after }, effect: effectOf(count, after, count + amount) };
};

/** sliding_window: the count of the check's window, while it is the current or the previous one. */
const slidingWindow: Adjuster = (s, rule, amount, at, now) => {
  const idx = now / W(rule);
  const checked = at / W(rule);
  if (checked !== idx && checked !== idx - 1n) return { state: s, effect: "none" };
  let prev = 0n;
  let curr = 0n;
  if (s && s.idx === idx) [prev, curr] = [s.prev as bigint, s.curr as bigint];
  else if (s && s.idx === idx - 1n) prev = s.curr as bigint;
  const old = checked === idx ? curr : prev;
  const after = moved(old, amount, L(rule));
  if (checked === idx) curr = after;
  else prev = after;
  return { state: { idx, prev, curr }, effect: effectOf(old, after, old + amount) };
};

/** sliding_log: the units logged at the check's time, while that time is in the window. */
const slidingLog: Adjuster = (s, rule, amount, at, now) => {
  if (at <= now - W(rule)) return { state: s, effect: "none" };
  const log = s ? (s.log as Array<[bigint, bigint]>) : [];
  const units = log.filter(([ts]) => ts > now - W(rule)).reduce((sum, [, c]) => sum + c, 0n);
  const pool = log.filter(([ts]) => ts === at).reduce((sum, [, c]) => sum + c, 0n);
  const after = amount > 0n ? pool + max(0n, min(amount, L(rule) - units)) : max(0n, pool + amount);
  const kept = log.filter(([ts]) => ts !== at);
  if (after > 0n) kept.push([at, after]);
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { state: { log: kept }, effect: effectOf(pool, after, pool + amount) };
};

/** calendar: the count of the check's period, while it is the current one. */
const calendar: Adjuster = (s, rule, amount, at, now) => {
  const zone = rule.calendar;
  if (zone === undefined) throw new RangeError("a calendar limit needs its period and time zone");
  const period = periodBounds(zone.period, zone.timeZone, Number(at));
  if (now >= BigInt(period.end)) return { state: s, effect: "none" };
  const start = BigInt(period.start);
  const count = s && s.start === start ? (s.count as bigint) : 0n;
  const after = moved(count, amount, L(rule));
  return { state: { start, count: after }, effect: effectOf(count, after, count + amount) };
};

const ADJUSTERS: Record<Algorithm, Adjuster> = {
  token_bucket: tokenBucket,
  leaky_bucket: leakyBucket,
  gcra,
  fixed_window: fixedWindow,
  sliding_window: slidingWindow,
  sliding_log: slidingLog,
  // never in a ticket (ticket.ts): a lease is released, not adjusted
  concurrency: (s) => ({ state: s, effect: "none" }),
  calendar,
};

interface AdjustRecord {
  net: number;
  replies: Map<string, AdjustResult>;
}

export class AdjustableReferenceLimiter extends ReferenceLimiter {
  private readonly records = new Map<string, AdjustRecord>();

  adjust(ticket: ModelTicket, request: AdjustRequest): AdjustResult {
    const nowMs = this.clock();
    let record = this.records.get(ticket.id);
    if (!record) this.records.set(ticket.id, (record = { net: 0, replies: new Map() }));
    const first = record.replies.get(request.idempotencyKey);
    if (first) return { ...first, status: "replayed" };
    const held = ticket.cost + record.net;
    const refused = (status: AdjustResult["status"]): AdjustResult => ({ status, held, nowMs, effects: [] });
    if (nowMs > ticket.at + ADJUST_WINDOW_MS) return refused("expired");
    if (held + request.amount < 0) return refused("over_refund");
    if (held + request.amount > MAX_HELD) return refused("over_charge");
    const now = big(nowMs);
    const effects = ticket.limits.map((spec) => {
      const key = [spec.tenantId, spec.id, spec.identity, spec.rule.algorithm].join("\u0000");
      const { state, effect } = ADJUSTERS[spec.rule.algorithm](
        this.states.get(key),
        spec.rule,
        big(request.amount),
        big(ticket.at),
        now,
      );
      if (state) this.states.set(key, state);
      return effect;
    });
    record.net += request.amount;
    const result: AdjustResult = { status: "applied", held: held + request.amount, nowMs, effects };
    record.replies.set(request.idempotencyKey, result);
    return result;
  }
}
