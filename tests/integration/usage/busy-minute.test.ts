import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "@/lib/control/data/db";
import { storedRows } from "@/lib/control/data/usage/stored-rows";
import { ROWS_PER_INSERT } from "@/lib/control/data/usage/rollup-writer";
import { closeRedis } from "@/lib/shared/redis/redis";
import { connect, createTenant, recorderFor, TestClock, type TestTenant, testRollup } from "./setup";

// A busy minute: more (key, route) pairs than one INSERT can carry (65,535 bind parameters,
// 8 a row: 8,192 rows). Written as one statement it failed, and the rollup retried that
// minute forever, holding every row in memory each time (the app process grew past 2 GB
// under the bench's realistic mix). Real Redis and PostgreSQL, through recorder and rollup.

const client = connect();
let tenant: TestTenant;
const boundary = Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;
const PAIRS_PER_SECOND = 3_500;
const SECONDS = 3;
const ROWS = PAIRS_PER_SECOND * SECONDS; // 10,500: past 8,192 and several statements

beforeAll(async () => {
  tenant = await createTenant("busy", []);
  const clock = new TestClock(boundary + 1_000);
  const recorder = recorderFor(client, clock);
  for (let second = 0; second < SECONDS; second++) {
    clock.ms = boundary + 1_000 + second * 1_000;
    for (let i = 0; i < PAIRS_PER_SECOND; i++) {
      const n = second * PAIRS_PER_SECOND + i;
      const outcome = n % 10 === 0 ? "rejected" : "allowed";
      recorder.record({
        tenantId: tenant.id,
        keyId: `k${n % 97}`,
        route: `GET /v1/r${n}`,
        outcome,
        subject: null,
      });
    }
    await recorder.flush();
  }
  await recorder.stop();
  expect(recorder.stats()).toMatchObject({ recorded: ROWS, failedFlushes: 0, droppedEvents: 0 });
}, 60_000);

afterAll(async () => {
  client.disconnect();
  await closeRedis();
  await closeDb();
});

describe("the rollup of a busy minute", () => {
  it("writes every row of a minute with more rows than one statement can carry, exactly", async () => {
    expect(ROWS).toBeGreaterThan(65_535 / 8);
    expect(ROWS).toBeGreaterThan(ROWS_PER_INSERT);
    const run = await testRollup({
      client,
      owner: "busy",
      clock: () => boundary + 2 * 60_000,
    }).runOnce();
    expect(run.held).toBe(true);
    const rows = (await storedRows("minute", [tenant.id])).filter((r) => r.t === boundary);
    expect(rows).toHaveLength(ROWS);
    expect(rows.reduce((sum, r) => sum + r.rejected, 0)).toBe(ROWS / 10);
    expect(rows.reduce((sum, r) => sum + r.allowed, 0)).toBe(ROWS - ROWS / 10);
    const one = rows.find((r) => r.route === "GET /v1/r9999");
    expect([one?.keyId, one?.allowed, one?.rejected]).toEqual([`k${9999 % 97}`, 1, 0]);
    // the tenant's series: one row with the minute's total
    const [total] = (await storedRows("minute", [tenant.id], "totals")).filter((r) => r.t === boundary);
    expect([total?.allowed, total?.rejected]).toEqual([ROWS - ROWS / 10, ROWS / 10]);
  }, 60_000);
});
