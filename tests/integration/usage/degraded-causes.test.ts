import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "@/lib/control/data/db";
import { NotFoundError } from "@/lib/control/errors/errors";
import type { Principal, Role } from "@/lib/shared/principal";
import { noCauses, recentDegraded } from "@/lib/usage/read/degraded-causes";
import type { DegradedCause } from "@/lib/check/types";
import { connect, contextAt, createTenant, recorderFor, TestClock, type TestTenant } from "./setup";

// What the console's degraded banner reads: degraded decisions recorded with their cause,
// counted per tenant and minute beside the usage counts, read back over the last 15
// minutes for operators and tenant admins; viewers get no causes (a short status).

const client = connect();
let tenant: TestTenant;
const now = Math.floor(Date.now() / 60_000) * 60_000 + 30_000;

const member = (tenantId: string, role: Role): Principal => ({
  kind: "user",
  id: "u-dgc",
  email: "dgc@x.test",
  name: "D",
  isOperator: false,
  memberships: new Map([[tenantId, role]]),
});

beforeAll(async () => {
  tenant = await createTenant("dgc", ["k"]);
  const clock = new TestClock(now - 20 * 60_000);
  const recorder = recorderFor(client, clock);
  const send = (n: number, outcome: "allowed" | "degraded", cause: DegradedCause | null) => {
    for (let i = 0; i < n; i++)
      recorder.record({ tenantId: tenant.id, keyId: null, route: null, outcome, subject: null, cause });
  };
  send(5, "degraded", "connection_lost"); // 20 minutes ago: outside the banner's window
  await recorder.flush();
  clock.ms = now - 5 * 60_000;
  send(4, "degraded", "local_overload");
  send(3, "allowed", null);
  clock.ms = now - 60_000;
  send(2, "degraded", "redis_timeout");
  send(1, "degraded", "local_overload");
  await recorder.stop();
});

afterAll(async () => {
  client.disconnect();
  await closeDb();
});

describe("recent degraded causes", () => {
  it("counts each cause of the last 15 minutes for an operator or a tenant admin", async () => {
    const expected = { ...noCauses(), local_overload: 5, redis_timeout: 2 };
    const ctx = contextAt(client, now);
    const operator = await recentDegraded({ kind: "system", label: "test" }, [tenant.slug], 15 * 60_000, ctx);
    expect(operator).toEqual({ causes: expected, canAct: true });
    const admin = await recentDegraded(member(tenant.id, "admin"), [tenant.slug], 15 * 60_000, ctx);
    expect(admin).toEqual({ causes: expected, canAct: true });
  });

  it("reads no causes for a viewer, and refuses a tenant the reader may not see", async () => {
    const ctx = contextAt(client, now);
    expect(await recentDegraded(member(tenant.id, "viewer"), [tenant.slug], 15 * 60_000, ctx)).toEqual({
      causes: noCauses(),
      canAct: false,
    });
    await expect(
      recentDegraded(member("other", "admin"), [tenant.slug], 15 * 60_000, ctx),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
