// The three algorithms a limit may count locally (consistency: local), decided on a
// server's in-memory view of the counter with the same math as lua/algorithms/ (the exact
// path), so an answer reads alike whichever way it was decided. A view may be past its
// limit (other servers admitted in the same sync interval), so remaining is clamped at 0.
//
// A view is three integers, as the exact script's state:
// fixed_window / sliding_window: window index, its count, the previous window's count;
// token_bucket: the level x (units used, times W, draining L per ms) and its time t.

export const CODE_FIXED_WINDOW = 1;
export const CODE_SLIDING_WINDOW = 3;
export const CODE_TOKEN_BUCKET = 4;

export type LocalCode = typeof CODE_FIXED_WINDOW | typeof CODE_SLIDING_WINDOW | typeof CODE_TOKEN_BUCKET;

/** A counter's view (or its increments) as three integers; see above for their meaning. */
export interface Triple {
  a: number;
  b: number;
  c: number;
}

/** What one look at a counter says: lua/common.lua's algorithm results. */
export interface Look {
  /** 1 admitted, 0 rate_limited, 2 cost_exceeds_capacity */
  status: number;
  retry: number;
  rem0: number;
  reset0: number;
  rem1: number;
  reset1: number;
}

/** The scaled numbers of a rule (lib/shared/limit-exactness.ts scaled()). */
export interface LocalRule {
  code: LocalCode;
  L: number;
  W: number;
  B: number;
}

const idiv = (a: number, b: number): number => Math.floor(a / b);
const cdiv = (a: number, b: number): number => Math.ceil(a / b);

/** A window view moved to window `to` (>= its own): the current count becomes the previous one. */
export function shiftWindow(view: Triple, to: number): void {
  if (view.a === to) return;
  view.c = view.a === to - 1 ? view.b : 0;
  view.b = 0;
  view.a = to;
}

/** Adds window-tagged increments into a window view (both shifted to the later window). */
export function addWindowed(view: Triple, inc: Triple): void {
  if (inc.a < 0) return;
  const to = Math.max(view.a, inc.a);
  shiftWindow(view, to);
  if (inc.a === to) {
    view.b += inc.b;
    view.c += inc.c;
  } else if (inc.a === to - 1) {
    view.c += inc.b;
  }
}

function fixedWindow(view: Triple, r: LocalRule, cost: number, now: number, out: Look): void {
  const idx = idiv(now, r.W);
  const count = view.a === idx ? view.b : 0;
  const reset = (idx + 1) * r.W - now;
  out.rem0 = out.rem1 = Math.max(0, r.L - count);
  out.reset0 = out.reset1 = reset;
  out.retry = -1;
  if (cost > r.L) out.status = 2;
  else if (count + cost > r.L) {
    out.status = 0;
    out.retry = reset;
  } else {
    out.status = 1;
    out.rem1 = r.L - count - cost;
  }
}

const swRemaining = (L: number, W: number, weighted: number, c: number): number =>
  Math.max(0, idiv(L * W - weighted - c * W, W));
const swReset = (W: number, e: number, prev: number, c: number): number =>
  c > 0 ? 2 * W - e : prev > 0 ? W - e : 0;

function slidingWindow(view: Triple, r: LocalRule, cost: number, now: number, out: Look): void {
  const { L, W } = r;
  const idx = idiv(now, W);
  const e = now - idx * W;
  const curr = view.a === idx ? view.b : 0;
  const prev = view.a === idx ? view.c : view.a === idx - 1 ? view.b : 0;
  const weighted = prev * (W - e);
  out.rem0 = out.rem1 = swRemaining(L, W, weighted, curr);
  out.reset0 = out.reset1 = swReset(W, e, prev, curr);
  out.retry = -1;
  if (cost > L) out.status = 2;
  else if (weighted + (curr + cost) * W > L * W) {
    out.status = 0;
    out.retry =
      curr + cost <= L ? W - idiv((L - curr - cost) * W, prev) - e : W - e + W - idiv((L - cost) * W, curr);
  } else {
    out.status = 1;
    out.rem1 = swRemaining(L, W, weighted, curr + cost);
    out.reset1 = swReset(W, e, prev, curr + cost);
  }
}

/** The bucket's level at `now` (drained since its time); the view is moved to now. */
function drain(view: Triple, L: number, now: number): void {
  if (now > view.b) {
    view.a = Math.max(0, view.a - (now - view.b) * L);
    view.b = now;
  }
}

function tokenBucket(view: Triple, r: LocalRule, cost: number, now: number, out: Look): void {
  const { L, W, B } = r;
  drain(view, L, now);
  const x = view.a;
  const cap = B * W;
  out.rem0 = out.rem1 = Math.max(0, idiv(cap - x, W));
  out.reset0 = out.reset1 = cdiv(x, L);
  out.retry = -1;
  const after = x + cost * W;
  if (cost > B) out.status = 2;
  else if (after > cap) {
    out.status = 0;
    out.retry = cdiv(after - cap, L);
  } else {
    out.status = 1;
    out.rem1 = Math.max(0, idiv(cap - after, W));
    out.reset1 = cdiv(after, L);
  }
}

/** Decides a check of `cost` at `now` on the view, changing nothing but a bucket's drain. */
export function look(view: Triple, r: LocalRule, cost: number, now: number, out: Look): void {
  if (r.code === CODE_TOKEN_BUCKET) tokenBucket(view, r, cost, now, out);
  else if (r.code === CODE_SLIDING_WINDOW) slidingWindow(view, r, cost, now, out);
  else fixedWindow(view, r, cost, now, out);
}

/** Takes `cost` units at `now`: the view and the increments not yet sent both count them. */
export function consume(view: Triple, pending: Triple, r: LocalRule, cost: number, now: number): void {
  if (r.code === CODE_TOKEN_BUCKET) {
    drain(view, r.L, now);
    view.a += cost * r.W;
    pending.a += cost;
    return;
  }
  const idx = idiv(now, r.W);
  shiftWindow(view, idx);
  view.b += cost;
  if (pending.a < 0) pending.a = idx;
  shiftWindow(pending, idx);
  pending.b += cost;
}
