// The LRU of local counters: bounded by its capacity, least recently used first out, and an
// evicted counter with unsynced increments kept for the next sync (up to a bound).

import { describe, expect, it } from "vitest";
import { CounterStore } from "@/lib/check/local/counter-store";
import { CODE_FIXED_WINDOW, type LocalRule } from "@/lib/check/limiter/local/local-algorithms";

const rule: LocalRule = { code: CODE_FIXED_WINDOW, L: 10, W: 1000, B: 10 };

describe("CounterStore", () => {
  it("never holds more than its capacity", () => {
    const store = new CounterStore(100);
    for (let i = 0; i < 10_000; i++) store.use(`k${i}`, "T", rule, 100);
    expect(store.size).toBe(100);
    // untouched counters that were evicted leave the sync set too
    expect(store.dirty.size).toBe(100);
  });

  it("evicts the least recently used identity", () => {
    const store = new CounterStore(3);
    const first = store.use("a", "T", rule, 100);
    store.use("b", "T", rule, 100);
    store.use("c", "T", rule, 100);
    // a sync took them (clean), then "a" is used again: it becomes the most recent
    for (const counter of [...store.dirty]) {
      counter.dirty = false;
      store.dirty.delete(counter);
    }
    expect(store.use("a", "T", rule, 100)).toBe(first);
    store.use("d", "T", rule, 100);
    expect(store.use("a", "T", rule, 100)).toBe(first);
    expect(store.size).toBe(3);
  });

  it("keeps an evicted counter's unsynced increments for the sync, within twice the capacity", () => {
    const store = new CounterStore(10);
    for (let i = 0; i < 1_000; i++) store.use(`k${i}`, "T", rule, 100).consume(1, 5_000);
    expect(store.size).toBe(10);
    expect(store.dirty.size).toBeGreaterThan(10);
    expect(store.dirty.size).toBeLessThanOrEqual(2 * 10 + 1);
  });

  it("tracks the shortest syncEvery for the cycle's tick", () => {
    const store = new CounterStore(10);
    store.use("a", "T", rule, 500);
    store.use("b", "T", rule, 50);
    expect(store.minSyncEveryMs).toBe(50);
  });
});
