import "server-only";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { ChainableCommander } from "ioredis";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { flushMarkKey } from "@/lib/usage/keys";
import type { TenantBatch } from "@/lib/usage/record/batch";
import type { TenantRecent } from "@/lib/usage/recent";
import { indexOf, writeIndex, writeTenant, type FlushSettings } from "@/lib/usage/record/flush";

// A flush sends each tenant's counts as one unit: a MULTI on the tenant's slot that also sets
// the recorder's field in the tenant's marker hash to the unit's sequence number. A unit
// lands whole or not at all, so one that failed (a primary killed, a timeout) is sent again
// with the next flush; when its answer was lost, the marker tells whether it had landed, so a
// retry never counts twice. Per tenant one unit is in doubt at a time: what is counted
// meanwhile waits as the next unit, so "the marker holds this number or a later one" means
// landed, and the marker stays one small hash per tenant whatever the traffic.

/** How long a marker lives after a tenant's last flush: longer than any unit is retried. */
const MARK_TTL_SECONDS = 300;

/** One flush's counts of one tenant. */
export interface UnitPart {
  counts: TenantBatch;
  recent: TenantRecent | null;
}

export interface TenantUnit {
  readonly tenantId: string;
  /** the flushes' counts it carries, written together */
  readonly parts: UnitPart[];
  /** when its oldest counts were taken, epoch ms (units past a deadline are dropped) */
  readonly firstMs: number;
  /** the number it was first sent under; 0 until then */
  seq: number;
}

/** What waits for one tenant: the unit in doubt (sent, not known to have landed), then the rest. */
export interface TenantQueue {
  sent: TenantUnit | null;
  next: TenantUnit | null;
}

export const unitEvents = (unit: TenantUnit): number =>
  unit.parts.reduce((sum, p) => sum + p.counts.events, 0);
export const unitFields = (unit: TenantUnit): number =>
  unit.parts.reduce((sum, p) => sum + p.counts.fields, 0);

/** The minute index of the units' counts. */
export function unitsIndex(
  units: Iterable<TenantUnit>,
  into?: Map<number, Set<string>>,
): Map<number, Set<string>> {
  const parts: Array<{ tenantId: string; counts: TenantBatch }> = [];
  for (const unit of units)
    for (const part of unit.parts) parts.push({ tenantId: unit.tenantId, counts: part.counts });
  return indexOf(parts, into);
}

export interface Sender {
  client: RedisClient;
  settings: FlushSettings;
  /** this recorder's field in the marker hashes */
  recorderId: string;
  nextSeq: () => number;
}

async function landed(sender: Sender, unit: TenantUnit): Promise<boolean> {
  const mark = await sender.client.hget(flushMarkKey(sender.settings.ns, unit.tenantId), sender.recorderId);
  return mark !== null && Number(mark) >= unit.seq;
}

/** Tenants whose units one pipeline carries: the event loop runs checks between slices. */
const SLICE = 250;

/** A unit's commands: its counts, then the recorder's mark, between MULTI and EXEC. */
function unitCommands(pipe: ChainableCommander, sender: Sender, unit: TenantUnit): void {
  for (const part of unit.parts) writeTenant(pipe, sender.settings, unit.tenantId, part.counts, part.recent);
  const mark = flushMarkKey(sender.settings.ns, unit.tenantId);
  pipe.hset(mark, sender.recorderId, unit.seq).expire(mark, MARK_TTL_SECONDS);
}

/** Whether a transaction ran: EXEC answered a list, not all of it errors (those would fail again). */
function ran(reply: [Error | null, unknown] | undefined): boolean {
  if (!reply || reply[0] || !Array.isArray(reply[1])) return false;
  const results: unknown[] = reply[1];
  const errors = results.filter((r) => r instanceof Error);
  if (errors.length === results.length && results.length > 0) return false;
  if (errors.length > 0)
    console.warn(`[sluice] usage flush: a command failed in a written unit: ${String(errors[0])}`);
  return true;
}

/**
 * Sends a slice of units; resolves which landed. One pipeline of MULTI...EXEC blocks on a
 * single Redis; on a Cluster one transaction per unit (each on its tenant's slot).
 */
async function sendSlice(
  sender: Sender,
  units: readonly TenantUnit[],
  fail: (e: unknown) => void,
): Promise<boolean[]> {
  const { client } = sender;
  if (client.isCluster) {
    // each unit on its own: one that fails leaves the others landed, not in doubt
    const one = async (unit: TenantUnit): Promise<boolean> => {
      const multi = client.multi();
      unitCommands(multi, sender, unit);
      const replies = await multi.exec();
      // the EXEC's answer is spread over the replies: null or all errors when it did not run
      if (!replies || replies.every(([e]) => e)) throw new Error("usage flush: transaction not applied");
      return ran([null, replies.map(([e, r]) => e ?? r)]);
    };
    return Promise.all(
      units.map((unit) =>
        one(unit).catch((e: unknown) => {
          fail(e);
          return false;
        }),
      ),
    );
  }
  const pipe = client.pipeline();
  const execAt: number[] = [];
  for (const unit of units) {
    pipe.call("MULTI");
    unitCommands(pipe, sender, unit);
    pipe.call("EXEC");
    execAt.push(pipe.length - 1);
  }
  const replies = await pipe.exec().catch((e: unknown) => {
    fail(e);
    return null;
  });
  return execAt.map((at) => ran(replies?.[at]));
}

export interface QueuesWritten {
  /** units that landed */
  written: TenantUnit[];
  /** the minute index could not be written */
  indexFailed: boolean;
  /** the first error met, for the log */
  error: unknown;
}

/** The unit in doubt, when it had landed: settled without sending (its answer was lost). */
async function settle(sender: Sender, queue: TenantQueue, written: TenantUnit[]): Promise<void> {
  if (queue.sent && (await landed(sender, queue.sent))) {
    written.push(queue.sent);
    queue.sent = null;
  }
}

/** Sends every tenant's queue and the minute index; the queues keep what did not land. */
export async function writeQueues(
  sender: Sender,
  queues: ReadonlyMap<string, TenantQueue>,
  index: ReadonlyMap<number, ReadonlySet<string>>,
): Promise<QueuesWritten> {
  let error: unknown = null;
  const written: TenantUnit[] = [];
  const fail = (e: unknown): void => {
    error ??= e;
  };
  // a unit in doubt is settled first: nothing after it is sent before it is known to have landed
  const doubtful = [...queues.values()].filter((queue) => queue.sent);
  const unsettled = new Set<TenantQueue>();
  await Promise.all(
    doubtful.map((queue) =>
      settle(sender, queue, written).catch((e: unknown) => {
        fail(e);
        unsettled.add(queue);
      }),
    ),
  );
  const sending: Array<{ queue: TenantQueue; unit: TenantUnit }> = [];
  for (const queue of queues.values()) {
    if (unsettled.has(queue)) continue;
    if (queue.sent) sending.push({ queue, unit: queue.sent });
    else if (queue.next) {
      const unit = queue.next;
      unit.seq = sender.nextSeq();
      [queue.sent, queue.next] = [unit, null];
      sending.push({ queue, unit });
    }
  }
  for (let i = 0; i < sending.length; i += SLICE) {
    if (i > 0) await nextTurn();
    const slice = sending.slice(i, i + SLICE);
    const landedUnits = await sendSlice(
      sender,
      slice.map((s) => s.unit),
      fail,
    );
    slice.forEach(({ queue, unit }, j) => {
      if (!landedUnits[j]) return fail(new Error("usage flush: a tenant's transaction did not run"));
      written.push(unit);
      queue.sent = null;
    });
  }
  let indexFailed = false;
  if (index.size > 0) {
    const pipe = sender.client.pipeline();
    writeIndex(pipe, sender.settings, index);
    const replies = await pipe.exec().catch((e: unknown) => {
      fail(e);
      return null;
    });
    const failed = replies?.find(([e]) => e);
    if (!replies || failed) {
      fail(failed?.[0] ?? new Error("usage flush: index not written"));
      indexFailed = true;
    }
  }
  return { written, indexFailed, error };
}
