import type { LimitRule } from "@/lib/shared/limit-types";
import type { ReferenceAlgorithm, State } from "@/lib/check/limiter/reference/types";
import { REFERENCE_ALGORITHMS } from "@/lib/check/limiter/reference/model";
import {
  MAX_CHECKS,
  TOP_ROWS,
  type ReplayPoint,
  type ReplayRow,
  type ReplayRule,
} from "@/lib/control/replay/types";

// Feeds recorded demand through the reference model (lib/limiter/reference), once per rule,
// and counts what each would have rejected. Pure: the counts are the model's, so a test can
// run the model directly on the same checks and expect the same numbers. A second's checks
// are spread evenly over it (the recording keeps no finer time) and cost 1 each.

/** Recorded checks of one counter owner in one second. */
export interface Demand {
  /** the counter owner under the limit's `by` ("" for the tenant) */
  owner: string;
  /** epoch second */
  second: number;
  count: number;
  /** labels for the affected list; null when not known */
  key: string | null;
  subject: string | null;
  route: string;
}

export interface SimulateOptions {
  stepMs: number;
  maxChecks?: number;
  /** wall-clock budget (ms), yields included */
  deadlineMs?: number;
}

export interface Simulation {
  points: Map<number, ReplayPoint>;
  rows: ReplayRow[];
  checks: number;
  truncated: boolean;
}

export function toRule(rule: ReplayRule): LimitRule {
  return { ...rule, mode: "enforce", onStoreFailure: "open" };
}

/** The millisecond times of one second's checks, entries interleaved evenly. */
export function spread(second: number, entries: readonly Demand[], most = Infinity): Array<[number, Demand]> {
  const times: Array<[number, Demand]> = [];
  for (const entry of entries)
    for (let k = 0; k < entry.count && times.length < most; k++)
      times.push([second * 1_000 + Math.floor((k * 1_000) / entry.count), entry]);
  return times.sort((a, b) => a[0] - b[0]);
}

class Verdicts {
  private state: State | undefined;
  constructor(
    private readonly alg: ReferenceAlgorithm | null,
    private readonly rule: LimitRule | null,
  ) {}
  /** true when the rule would reject a cost-1 check at `now` (and consumes when it admits) */
  rejects(now: bigint): boolean {
    if (!this.alg || !this.rule) return false;
    if (!this.alg.look(this.state, this.rule, 1n, now).admits) return true;
    this.state = this.alg.consume(this.state, this.rule, 1n, now);
    return false;
  }
}

function verdicts(rule: ReplayRule | null): Verdicts {
  return rule ? new Verdicts(REFERENCE_ALGORITHMS[rule.algorithm], toRule(rule)) : new Verdicts(null, null);
}

/** Gives the event loop back this often (ms of work): a replay runs beside the check path. */
const SLICE_MS = 10;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function simulate(
  demand: readonly Demand[],
  current: ReplayRule | null,
  proposed: ReplayRule,
  options: SimulateOptions,
): Promise<Simulation> {
  const byOwner = new Map<string, Map<number, Demand[]>>();
  for (const d of demand) {
    if (d.count <= 0) continue;
    const seconds = byOwner.get(d.owner) ?? new Map<number, Demand[]>();
    byOwner.set(d.owner, seconds);
    seconds.set(d.second, [...(seconds.get(d.second) ?? []), d]);
  }
  const points = new Map<number, ReplayPoint>();
  const rows = new Map<string, ReplayRow>();
  const tally = (kind: ReplayRow["kind"], name: string, cur: boolean, prop: boolean): void => {
    const id = `${kind}\u0000${name}`;
    const row = rows.get(id) ?? { kind, name, checks: 0, currentRejected: 0, proposedRejected: 0 };
    rows.set(id, row);
    row.checks++;
    if (cur) row.currentRejected++;
    if (prop) row.proposedRejected++;
  };
  const maxChecks = options.maxChecks ?? MAX_CHECKS;
  const deadline = Date.now() + (options.deadlineMs ?? 3_000);
  let checks = 0;
  let truncated = false;
  let slice = Date.now();
  owners: for (const seconds of byOwner.values()) {
    const [cur, prop] = [verdicts(current), verdicts(proposed)];
    for (const second of [...seconds.keys()].sort((a, b) => a - b)) {
      for (const [ms, entry] of spread(second, seconds.get(second) ?? [], maxChecks - checks + 1)) {
        // the clock every 32 checks: a sliding log's model is linear in its log
        if (checks % 32 === 0) {
          if (Date.now() > deadline) {
            truncated = true;
            break owners;
          }
          if (Date.now() - slice > SLICE_MS) {
            await yieldToLoop();
            slice = Date.now();
          }
        }
        if (checks >= maxChecks) {
          truncated = true;
          break owners;
        }
        checks++;
        const now = BigInt(ms);
        const [c, p] = [cur.rejects(now), prop.rejects(now)];
        const t = Math.floor(ms / options.stepMs) * options.stepMs;
        const point = points.get(t) ?? { t, checks: 0, currentRejected: 0, proposedRejected: 0 };
        points.set(t, point);
        point.checks++;
        if (c) point.currentRejected++;
        if (p) point.proposedRejected++;
        if (entry.key !== null) tally("key", entry.key, c, p);
        if (entry.subject !== null) tally("subject", entry.subject, c, p);
        tally("route", entry.route, c, p);
      }
    }
  }
  return { points, rows: topRows([...rows.values()]), checks, truncated };
}

/** The most affected rows of each kind: most rejected by the proposed limit, then by today's. */
function topRows(rows: ReplayRow[]): ReplayRow[] {
  const order = (a: ReplayRow, b: ReplayRow) =>
    b.proposedRejected - a.proposedRejected || b.currentRejected - a.currentRejected || b.checks - a.checks;
  return (["key", "subject", "route"] as const).flatMap((kind) =>
    rows
      .filter((r) => r.kind === kind)
      .sort(order)
      .slice(0, TOP_ROWS),
  );
}
