import { describe, expect, it } from "vitest";
import { UsageBatch } from "@/lib/usage/record/batch";
import { unitEvents, type TenantQueue } from "@/lib/usage/record/flush-units";
import { RETRY_MS, UnsentUnits } from "@/lib/usage/record/unsent-units";

// What a failed usage flush keeps for the next (lib/usage/record/unsent-units.ts): per tenant
// the unit in doubt and the counts taken since (one unit, however many flushes), within the
// counters allowed, newest first, none past the retry minute; what falls out is reported as
// dropped decisions, never silently lost.

const NOW = 1_800_000_000_000;

/** A batch of `tenants` tenants, each with `events` decisions on `fields` distinct seconds. */
function batchOf(tenants: number, events: number, fields: number): UsageBatch {
  const batch = new UsageBatch({ maxFields: 100_000, maxSubjects: 100 });
  for (let t = 0; t < tenants; t++)
    for (let i = 0; i < events; i++)
      batch.add(
        { tenantId: `t${t}`, keyId: "k", route: "GET /", outcome: "allowed", subject: null },
        NOW - 60_000 + (i % fields) * 1_000,
      );
  return batch;
}

const noRecent = (): null => null;

/** Takes `batch` into `unsent` and marks every queued unit as sent (in doubt). */
function sentAndFailed(unsent: UnsentUnits, batch: UsageBatch, at: number): Map<string, TenantQueue> {
  const { queues } = unsent.take(batch.tenants, noRecent, at);
  let seq = 0;
  for (const queue of queues.values()) {
    if (queue.next) [queue.sent, queue.next] = [{ ...queue.next, seq: ++seq }, null];
  }
  return queues;
}

describe("unsent usage units", () => {
  it("a tenant's new counts queue behind its unit in doubt, as one unit however many flushes", () => {
    const unsent = new UnsentUnits(1_000, () => undefined);
    unsent.keep(sentAndFailed(unsent, batchOf(1, 30, 10), NOW), NOW);
    let { queues } = unsent.take(batchOf(1, 5, 5).tenants, noRecent, NOW + 1_000);
    unsent.keep(queues, NOW + 1_000);
    ({ queues } = unsent.take(batchOf(2, 7, 5).tenants, noRecent, NOW + 2_000));
    const t0 = queues.get("t0");
    expect(t0?.sent && unitEvents(t0.sent)).toBe(30);
    expect(t0?.next?.parts).toHaveLength(2);
    expect(t0?.next && unitEvents(t0.next)).toBe(12);
    expect(queues.get("t1")?.sent).toBeNull();
    expect(queues.get("t1")?.next?.firstMs).toBe(NOW + 2_000);
  });

  it("keeps units within the counters allowed, newest first, and drops the rest", () => {
    let dropped = 0;
    const unsent = new UnsentUnits(25, (events) => (dropped += events));
    const old = sentAndFailed(unsent, batchOf(2, 20, 10), NOW - 5_000);
    unsent.keep(old, NOW - 5_000);
    expect(unsent.size).toBe(2);
    const { queues } = unsent.take(batchOf(1, 20, 10).tenants, noRecent, NOW);
    unsent.keep(queues, NOW);
    // t0's new unit (10 counters) and one unit in doubt (10) fit 25; the other (10) does not
    expect(unsent.size).toBe(2);
    expect(unsent.events).toBe(40);
    expect(dropped).toBe(20);
  });

  it("drops units past the retry minute", () => {
    let dropped = 0;
    const unsent = new UnsentUnits(1_000, (events) => (dropped += events));
    unsent.keep(sentAndFailed(unsent, batchOf(1, 5, 5), NOW - RETRY_MS), NOW);
    expect(unsent.events).toBe(5);
    unsent.keep(sentAndFailed(unsent, new UsageBatch({ maxFields: 10, maxSubjects: 1 }), NOW), NOW + 1);
    expect(unsent.events).toBe(0);
    expect(dropped).toBe(5);
    expect(unsent.empty).toBe(true);
  });

  it("the minute index of failed flushes is merged, each tenant once", () => {
    const unsent = new UnsentUnits(1_000, () => undefined);
    unsent.keepIndex(new Map([[5, new Set(["a", "b"])]]));
    unsent.keepIndex(
      new Map([
        [5, new Set(["b", "c"])],
        [6, new Set(["a"])],
      ]),
    );
    // an index alone is still something to send
    expect(unsent.size).toBe(0);
    expect(unsent.empty).toBe(false);
    const { index } = unsent.take(new Map(), noRecent, NOW);
    expect(unsent.empty).toBe(true);
    expect([...(index.get(5) ?? [])].sort()).toEqual(["a", "b", "c"]);
    expect([...(index.get(6) ?? [])]).toEqual(["a"]);
  });
});
