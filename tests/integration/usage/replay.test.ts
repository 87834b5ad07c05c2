import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "@/lib/control/data/db";
import { NotFoundError } from "@/lib/control/errors/errors";
import { closeRedis } from "@/lib/shared/redis/redis";
import { ReferenceLimiter } from "@/lib/check/limiter/reference/model";
import { runReplay } from "@/lib/control/replay/run-replay";
import { spread, toRule, type Demand } from "@/lib/control/replay/simulate";
import { replayRequestSchema, type ReplayRule } from "@/lib/control/replay/types";
import { SUBJECTS_PER_MINUTE } from "@/lib/usage/subject-series";
import type { UsageEvent } from "@/lib/usage/types";
import { connect, createTenant, NS, recorderFor, SYSTEM, TestClock, type TestTenant } from "./setup";

// The what-if replay end to end: a known sequence is recorded through the real recorder into
// real Redis, replayed, and compared with the reference model run directly on the same checks
// (each second's checks spread evenly over it, as docs/replay.md says).

const client = connect();
let tenant: TestTenant;
let other: TestTenant;
// minute boundary 20 minutes ago: inside the hour a replay reads
const start = Math.floor(Date.now() / 60_000) * 60_000 - 20 * 60_000;
const now = start + 5 * 60_000;

const TOKEN: ReplayRule = {
  algorithm: "token_bucket",
  limit: 5,
  windowMs: 1_000,
  burst: 8,
  action: "reject",
  maxDelayMs: null,
};
const FIXED: ReplayRule = {
  algorithm: "fixed_window",
  limit: 30,
  windowMs: 10_000,
  burst: null,
  action: "reject",
  maxDelayMs: null,
};
const SLIDING: ReplayRule = {
  algorithm: "sliding_window",
  limit: 12,
  windowMs: 5_000,
  burst: null,
  action: "reject",
  maxDelayMs: null,
};

// second offset -> [key, route, subject, checks]
type Step = [number, "a" | "b" | null, string, string | null, number];
const SEQUENCE: Step[] = [
  [0, "a", "GET /x", "ip-1", 3],
  [0, "b", "GET /x", "ip-2", 9],
  [1, "a", "POST /y", "ip-1", 12],
  [2, "a", "GET /x", "ip-1", 1],
  [2, null, "GET /x", "ip-3", 4],
  [7, "b", "POST /y", "ip-2", 20],
  [61, "a", "GET /x", "ip-1", 15],
  [62, "b", "GET /x", "ip-1", 6],
  [125, "a", "POST /y", "ip-2", 40],
  [126, "a", "POST /y", null, 5],
];

/** The reference model's rejections for one owner's demand, run directly. */
function reference(rule: ReplayRule, demand: Demand[]): number {
  const bySecond = new Map<number, Demand[]>();
  for (const d of demand) bySecond.set(d.second, [...(bySecond.get(d.second) ?? []), d]);
  let clock = 0;
  const model = new ReferenceLimiter(() => clock);
  const spec = { id: "l", tenantId: "t", identity: "o", rule: toRule(rule) };
  let rejected = 0;
  for (const second of [...bySecond.keys()].sort((a, b) => a - b)) {
    for (const [ms] of spread(second, bySecond.get(second) ?? [])) {
      clock = ms;
      if (!model.check([spec], { cost: 1, dryRun: false }).allowed) rejected++;
    }
  }
  return rejected;
}

function demandOf(filter: (s: Step) => boolean): Demand[] {
  return SEQUENCE.filter(filter).map(([offset, , route, subject, count]) => ({
    owner: "",
    second: start / 1_000 + offset,
    count,
    key: null,
    subject,
    route,
  }));
}

beforeAll(async () => {
  tenant = await createTenant("replay", ["a", "b"]);
  other = await createTenant("replay-other", []);
  const clock = new TestClock(start);
  const recorder = recorderFor(client, clock);
  for (const [offset, key, route, subject, count] of SEQUENCE) {
    clock.ms = start + offset * 1_000 + 500;
    for (let i = 0; i < count; i++) {
      const event: UsageEvent = {
        tenantId: tenant.id,
        keyId: key ? (tenant.keys[key] ?? null) : null,
        route,
        // half allowed, half rejected: the replay counts demand, whatever today's outcome
        outcome: i % 2 === 0 ? "allowed" : "rejected",
        subject,
      };
      recorder.record(event);
    }
    await recorder.flush();
  }
  // a tenant past the subject cap within one minute
  clock.ms = start + 3 * 60_000;
  for (let s = 0; s < SUBJECTS_PER_MINUTE + 10; s++)
    recorder.record({
      tenantId: other.id,
      keyId: null,
      route: "GET /x",
      outcome: "allowed",
      subject: `s-${s}`,
    });
  // stopping writes the subject series' last, unfinished minute too
  await recorder.stop();
}, 30_000);

afterAll(async () => {
  client.disconnect();
  await closeRedis();
  await closeDb();
});

const replay = (body: Record<string, unknown>) =>
  runReplay(SYSTEM, replayRequestSchema.parse({ tenant: tenant.slug, minutes: 10, ...body }), {
    client,
    ns: NS,
    now,
  });

describe("what-if replay against the reference model", () => {
  it("a tenant limit: every recorded check is demand, the counts are the model's", async () => {
    const result = await replay({ by: "tenant", current: FIXED, proposed: TOKEN });
    const all = demandOf(() => true);
    expect(result.totals.checks).toBe(all.reduce((s, d) => s + d.count, 0));
    expect(result.totals.proposedRejected).toBe(reference(TOKEN, all));
    expect(result.totals.currentRejected).toBe(reference(FIXED, all));
    expect(result.totals.proposedRejected).toBeGreaterThan(0);
    expect(result.source).toBe("keys");
    expect(result.points).toHaveLength(10);
    expect(result.bounds.truncated).toBe(false);
  });

  it("a key limit counts each key apart and skips checks without a key", async () => {
    const result = await replay({ by: "key", current: null, proposed: SLIDING });
    const [a, b] = [demandOf((s) => s[1] === "a"), demandOf((s) => s[1] === "b")];
    expect(result.totals.currentRejected).toBe(0);
    expect(result.totals.proposedRejected).toBe(reference(SLIDING, a) + reference(SLIDING, b));
    const rowA = result.top.find((r) => r.kind === "key" && r.name === "a");
    expect(rowA?.proposedRejected).toBe(reference(SLIDING, a));
    expect(rowA?.checks).toBe(a.reduce((s, d) => s + d.count, 0));
  });

  it("a key's limit on one route sees only that key's checks on it", async () => {
    const result = await replay({ by: "tenant", key: "a", route: "POST /y", current: null, proposed: TOKEN });
    const demand = demandOf((s) => s[1] === "a" && s[2] === "POST /y");
    expect(result.totals.checks).toBe(57);
    expect(result.totals.proposedRejected).toBe(reference(TOKEN, demand));
  });

  it("a subject limit replays the per-subject series", async () => {
    const result = await replay({ by: "subject", current: TOKEN, proposed: SLIDING });
    expect(result.source).toBe("subjects");
    let expected = 0;
    for (const ip of ["ip-1", "ip-2", "ip-3"])
      expected += reference(
        SLIDING,
        demandOf((s) => s[3] === ip),
      );
    expect(result.totals.proposedRejected).toBe(expected);
    expect(result.totals.checks).toBe(115 - 5); // the 5 checks without a subject skip it
    const ip2 = result.top.find((r) => r.kind === "subject" && r.name === "ip-2");
    expect(ip2?.proposedRejected).toBe(
      reference(
        SLIDING,
        demandOf((s) => s[3] === "ip-2"),
      ),
    );
  });

  it("subjects past the per-minute cap are counted, not replayed, and said so", async () => {
    const result = await runReplay(
      SYSTEM,
      replayRequestSchema.parse({
        tenant: other.slug,
        by: "subject",
        current: null,
        proposed: TOKEN,
        minutes: 10,
      }),
      { client, ns: NS, now },
    );
    expect(result.totals.checks).toBe(SUBJECTS_PER_MINUTE);
    expect(result.bounds.unattributed).toBe(10);
    expect(result.caveats.join(" ")).toMatch(/10 checks of other subjects were not replayed/);
  });

  it("refuses another tenant's data to a tenant-scoped caller, and a range past an hour", async () => {
    const outsider = {
      kind: "admin-token" as const,
      id: "t",
      name: "t",
      tenantId: other.id,
      role: "admin" as const,
    };
    await expect(
      runReplay(
        outsider,
        replayRequestSchema.parse({ tenant: tenant.slug, by: "tenant", current: null, proposed: TOKEN }),
        {
          client,
          ns: NS,
          now,
        },
      ),
    ).rejects.toBeInstanceOf(NotFoundError);
    const tooLong = replayRequestSchema.safeParse({
      tenant: tenant.slug,
      by: "tenant",
      current: null,
      proposed: TOKEN,
      minutes: 24 * 60,
    });
    expect(tooLong.success).toBe(false);
    expect(tooLong.error?.issues[0]?.path).toEqual(["minutes"]);
  });
});
