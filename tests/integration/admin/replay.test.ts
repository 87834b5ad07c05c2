// The what-if replay over HTTP (docs/replay.md): real checks recorded by the running app, a
// dry-run import that answers the replay of the limit it changes, POST /api/admin/replay's
// scoping and caps.
import { beforeAll, describe, expect, it } from "vitest";
import {
  anyPlan,
  call,
  createAdminToken,
  createKey,
  exportJson,
  importJson,
  putTenants,
  uniqueSlug,
} from "./http";

const mine = uniqueSlug("replay");
const theirs = uniqueSlug("replay-x");
const LIMIT = { name: "rp-burst", by: "key", algorithm: "token_bucket", limit: 100, window: "1s" };
const SENT = 20;
let plan: string;

interface Totals {
  checks: number;
  currentRejected: number;
  proposedRejected: number;
}
interface ReplayAnswer {
  totals: Totals;
  top: { kind: string; name: string; checks: number }[];
  bounds: { truncated: boolean };
  caveats: string[];
}
interface DryRun {
  configVersion: number | null;
  replay: {
    replays: {
      tenant: string;
      limit: string;
      key: string | null;
      current: { limit: number } | null;
      proposed: { limit: number };
      result: ReplayAnswer;
    }[];
    leftOut: number;
  };
}

const rule = (limit: number) => ({
  algorithm: "token_bucket",
  limit,
  windowMs: 1_000,
  burst: null,
  action: "reject",
  maxDelayMs: null,
});
const replay = (body: Record<string, unknown>, token?: string) =>
  call<ReplayAnswer & { error?: { path?: string } }>("POST", "/api/admin/replay", {
    body: { tenant: mine, by: "key", current: rule(100), proposed: rule(2), minutes: 10, ...body },
    ...(token ? { token } : {}),
  });

beforeAll(async () => {
  plan = await anyPlan();
  await putTenants([
    { slug: mine, plan, limits: [LIMIT] },
    { slug: theirs, plan },
  ]);
  await createKey(mine, "k1");
  const sent = await Promise.all(
    Array.from({ length: SENT }, () =>
      call("POST", "/api/check", { body: { tenant: mine, key: "k1", route: "GET /rp" } }),
    ),
  );
  expect(sent.every((r) => r.status === 200)).toBe(true);
  // the recorder flushes every second
  for (let i = 0; i < 50; i++) {
    const reply = await replay({});
    if (reply.body.totals?.checks === SENT) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the checks were not recorded within 10 s");
});

describe("what-if replay over HTTP", () => {
  it("answers the recorded checks, today's rejections and the proposed limit's, per key", async () => {
    const reply = await replay({});
    expect(reply.status).toBe(200);
    expect(reply.body.totals.checks).toBe(SENT);
    expect(reply.body.totals.currentRejected).toBe(0);
    expect(reply.body.totals.proposedRejected).toBeGreaterThan(0);
    expect(reply.body.totals.proposedRejected).toBeLessThan(SENT);
    expect(reply.body.top).toContainEqual(expect.objectContaining({ kind: "key", name: "k1", checks: SENT }));
    expect(reply.body.caveats.length).toBeGreaterThan(0);
  });

  it("a dry-run import answers the replay of the limit it changes, and changes nothing", async () => {
    const doc = { tenants: [{ slug: mine, plan, limits: [{ ...LIMIT, limit: 2 }] }] };
    const reply = await call<DryRun>("PUT", "/api/admin/config?dryRun=true", { body: doc });
    expect(reply.status).toBe(200);
    expect(reply.body.configVersion).toBeNull();
    const entry = reply.body.replay.replays.find((r) => r.limit === "rp-burst");
    expect(entry?.tenant).toBe(mine);
    expect(entry?.current?.limit).toBe(100);
    expect(entry?.proposed.limit).toBe(2);
    expect(entry?.result.totals.checks).toBe(SENT);
    expect(entry?.result.totals.proposedRejected).toBeGreaterThan(0);
    const after = await exportJson();
    expect(after.tenants?.find((t) => t.slug === mine)?.limits).toContainEqual(
      expect.objectContaining({ limit: 100 }),
    );
    // an unchanged document replays nothing
    const same = await importJson({ tenants: [{ slug: mine, plan, limits: [LIMIT] }] }, "?dryRun=true");
    expect((same.body as unknown as DryRun).replay.replays).toEqual([]);
  });

  it("another tenant's caller gets 404; a viewer of the tenant may replay", async () => {
    const outsider = await createAdminToken({ name: "rp outsider", role: "admin", tenant: theirs });
    expect((await replay({}, outsider)).status).toBe(404);
    const viewer = await createAdminToken({ name: "rp viewer", role: "viewer", tenant: mine });
    expect((await replay({}, viewer)).status).toBe(200);
  });

  it("refuses a range past an hour, a bad rule and a huge body, naming the field", async () => {
    const long = await replay({ minutes: 24 * 60 });
    expect(long.status).toBe(400);
    expect(long.text).toContain("minutes");
    const bad = await replay({ proposed: { ...rule(2), algorithm: "magic" } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("algorithm");
    const huge = await replay({ route: "x".repeat(100_000) });
    expect(huge.status).toBe(413);
  });
});
