// The local counter's model (lib/limiter/local/): decisions as the exact script makes them,
// increments kept through a failed sync, and views rebuilt from converged states.

import { describe, expect, it } from "vitest";
import {
  CODE_FIXED_WINDOW,
  CODE_SLIDING_WINDOW,
  CODE_TOKEN_BUCKET,
  type LocalRule,
  type Look,
} from "@/lib/check/limiter/local/local-algorithms";
import { LocalCounter } from "@/lib/check/limiter/local/local-counter";

const look = (): Look => ({ status: -1, retry: -1, rem0: 0, reset0: 0, rem1: 0, reset1: 0 });

function admitAll(counter: LocalCounter, times: number, now: number): number {
  let admitted = 0;
  for (let i = 0; i < times; i++) {
    const out = look();
    counter.look(1, now, out);
    if (out.status === 1) {
      counter.consume(1, now);
      admitted++;
    }
  }
  return admitted;
}

const fixed: LocalRule = { code: CODE_FIXED_WINDOW, L: 5, W: 1000, B: 5 };
const sliding: LocalRule = { code: CODE_SLIDING_WINDOW, L: 10, W: 1000, B: 10 };
const bucket: LocalRule = { code: CODE_TOKEN_BUCKET, L: 1, W: 100, B: 5 }; // 5 per 500 ms scaled

describe("local counter decisions", () => {
  it("fixed window: admits the limit in a window, then denies until the window ends", () => {
    const counter = new LocalCounter("k", "T", fixed, 100);
    expect(admitAll(counter, 8, 10_200)).toBe(5);
    const out = look();
    counter.look(1, 10_300, out);
    expect(out).toMatchObject({ status: 0, retry: 700, rem0: 0 });
    expect(admitAll(counter, 8, 11_000)).toBe(5);
  });

  it("sliding window: the previous window weighs by what is left of it", () => {
    const counter = new LocalCounter("k", "T", sliding, 100);
    expect(admitAll(counter, 10, 1_500)).toBe(10);
    // half of the next window: prev 10 weighs 5, so 5 more fit
    expect(admitAll(counter, 10, 2_500)).toBe(5);
  });

  it("token bucket: capacity, then refill at the rate", () => {
    const counter = new LocalCounter("k", "T", bucket, 100);
    expect(admitAll(counter, 9, 1_000)).toBe(5);
    expect(admitAll(counter, 9, 1_200)).toBe(2); // 200 ms at 1 per 100 ms
  });

  it("cost above capacity is cost_exceeds_capacity, never admitted", () => {
    const counter = new LocalCounter("k", "T", fixed, 100);
    const out = look();
    counter.look(6, 0, out);
    expect(out.status).toBe(2);
  });
});

describe("sync bookkeeping", () => {
  it("a failed sync keeps the increments, merged with what came since", () => {
    const counter = new LocalCounter("k", "T", fixed, 100);
    admitAll(counter, 3, 5_100);
    const sent = counter.takeIncrements();
    expect(sent).toEqual({ a: 5, b: 3, c: 0 });
    admitAll(counter, 1, 5_200);
    counter.restore();
    expect(counter.pending).toEqual({ a: 5, b: 4, c: 0 });
    expect(counter.unsynced).toBe(true);
  });

  it("increments of a window that has passed count as the previous window's", () => {
    const counter = new LocalCounter("k", "T", sliding, 100);
    admitAll(counter, 2, 5_900);
    counter.takeIncrements();
    admitAll(counter, 1, 6_100);
    counter.restore();
    expect(counter.pending).toEqual({ a: 6, b: 1, c: 2 });
  });

  it("the view becomes the converged state plus what was counted while the sync was in flight", () => {
    const counter = new LocalCounter("k", "T", fixed, 100);
    admitAll(counter, 1, 7_000);
    counter.takeIncrements();
    admitAll(counter, 1, 7_010);
    counter.converge(7, 4, 0, 7_020); // Redis: 4 in window 7, other servers included
    expect(counter.view).toEqual({ a: 7, b: 5, c: 0 });
    expect(admitAll(counter, 5, 7_030)).toBe(0);
    expect(counter.sent).toBeNull();
  });

  it("a bucket's converged level adds the units counted in flight", () => {
    const counter = new LocalCounter("k", "T", bucket, 100);
    admitAll(counter, 2, 1_000);
    expect(counter.takeIncrements()).toEqual({ a: 2, b: 0, c: 0 });
    admitAll(counter, 1, 1_000);
    counter.converge(400, 1_000, 0, 1_000); // 4 units used in all
    expect(counter.view.a).toBe(500);
    expect(admitAll(counter, 5, 1_000)).toBe(0);
  });
});
