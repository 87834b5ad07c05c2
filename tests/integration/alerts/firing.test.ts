import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifySignature } from "@/lib/control/alerts/signature";
import { evaluateOnce } from "@/lib/control/alerts/evaluator";
import { createApiKey } from "@/lib/control/data/api-keys";
import { createAlertEndpoint } from "@/lib/control/data/alerts/endpoints";
import { createAlertRule } from "@/lib/control/data/alerts/rules";
import { closeDb, db } from "@/lib/control/data/db";
import { importConfig } from "@/lib/control/data/import-config";
import { closeRedis } from "@/lib/shared/redis/redis";
import { rowContext } from "@/lib/usage/read/context";
import { events, record, RUN, startReceiver, step, SYSTEM, until, type Receiver } from "./support";

// Firing and resolving against real PostgreSQL, Redis and an HTTP receiver: a rule fires
// once while its condition holds (however many evaluators run: this test's and the two
// test apps'), sends a signed message, and sends "resolved" once when it stops holding.

let receiver: Receiver;
let secret: string;
let tenantId: string;
let keyId: string;
const slug = `${RUN}-fire`;

beforeAll(async () => {
  receiver = await startReceiver();
  await importConfig(SYSTEM, {
    tenants: [
      {
        slug,
        name: "Alert test",
        plan: "free",
        limits: [{ name: "burst", by: "tenant", algorithm: "fixed_window", limit: 10, window: "8s" }],
      },
    ],
  });
  tenantId = (await db().tenant.findUniqueOrThrow({ where: { slug } })).id;
  keyId = (await createApiKey(SYSTEM, slug, { name: "batch" })).id;
  const created = await createAlertEndpoint(SYSTEM, slug, {
    name: "hook",
    url: receiver.url,
    allowPrivate: true,
  });
  secret = created.secret;
});

afterAll(async () => {
  await receiver.close();
  await closeRedis();
  await closeDb();
});

const of = (event: string, rule: string) =>
  receiver.received.filter(
    (r) => r.headers["x-sluice-event"] === event && r.body.includes(`"name":"${rule}"`),
  );
/** The messages of that rule and event once there are some (for until). */
const arrived = async (event: string, rule: string) => {
  await step();
  const found = of(event, rule);
  return found.length > 0 ? found : null;
};

describe("alert rules fire and resolve once", () => {
  it("rejection rate: fires with a signed, timestamped body, then resolves", async () => {
    const rule = await createAlertRule(SYSTEM, slug, {
      name: "rejections",
      kind: "rejection_rate",
      thresholdPct: 20,
      forSeconds: 2,
      endpoint: "hook",
    });
    await record([
      ...events(6, { tenantId, keyId: null, route: null, outcome: "allowed" }),
      ...events(4, { tenantId, keyId: null, route: null, outcome: "rejected" }),
    ]);
    const [firing] = await until("the firing message", () => arrived("firing", "rejections"));
    const header = String(firing?.headers["x-sluice-signature"]);
    expect(verifySignature(secret, header, firing?.body ?? "")).toBe(true);
    // the timestamp is signed: the same body with another time, or another secret, fails
    const t = Number(firing?.headers["x-sluice-timestamp"]);
    expect(header.startsWith(`t=${t},v1=`)).toBe(true);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(30);
    expect(verifySignature(secret, header.replace(`t=${t}`, `t=${t + 1}`), firing?.body ?? "")).toBe(false);
    expect(verifySignature("whsec_other", header, firing?.body ?? "")).toBe(false);
    expect(verifySignature(secret, header, firing?.body ?? "", t + 600)).toBe(false);
    const body = JSON.parse(firing?.body ?? "{}");
    expect(body).toMatchObject({
      event: "firing",
      tenant: slug,
      rule: { id: rule.id, kind: "rejection_rate" },
      value: 40,
    });

    await until("the resolved message", () => arrived("resolved", "rejections"));
    // a few more passes: still exactly one of each
    for (let i = 0; i < 3; i++) await step();
    expect(of("firing", "rejections")).toHaveLength(1);
    expect(of("resolved", "rejections")).toHaveLength(1);
    const incidents = await db().alertIncident.findMany({ where: { ruleId: rule.id } });
    expect(incidents).toHaveLength(1);
    expect(incidents[0]?.resolvedAt).not.toBeNull();
    const deliveries = await db().alertDelivery.findMany({ where: { ruleId: rule.id } });
    expect(deliveries.map((d) => [d.event, d.status, d.attempts, d.responseCode]).sort()).toEqual([
      ["firing", "delivered", 1, 200],
      ["resolved", "delivered", 1, 200],
    ]);
  });

  it("utilization of a limit above N% for D fires and resolves; an unmeasurable limit is refused", async () => {
    const rule = await createAlertRule(SYSTEM, slug, {
      name: "near-burst",
      kind: "utilization",
      limit: "burst",
      key: "batch",
      thresholdPct: 80,
      forSeconds: 2,
      endpoint: "hook",
    });
    // a limit the usage data cannot measure (or that does not exist) is refused, naming the field
    await expect(
      createAlertRule(SYSTEM, slug, {
        name: "no-such-limit",
        kind: "utilization",
        limit: "missing",
        thresholdPct: 1,
        endpoint: "hook",
      }),
    ).rejects.toThrow(/^limit: .* no limit named missing/);
    expect(await db().alertRule.count({ where: { tenantId, name: "no-such-limit" } })).toBe(0);
    // 9 admitted of 10 in an 8 s window: 90% for as long as the window holds them (the rule
    // looks at key batch only, so the first test's traffic does not count)
    await record(events(9, { tenantId, keyId, route: null, outcome: "allowed" }));
    const [firing] = await until("utilization firing", () => arrived("firing", "near-burst"));
    expect(JSON.parse(firing?.body ?? "{}")).toMatchObject({
      rule: { id: rule.id, limit: "burst" },
      value: 90,
    });
    await until("utilization resolved", () => arrived("resolved", "near-burst"));
    expect(of("firing", "near-burst")).toHaveLength(1);
  });

  it("two evaluators at once open one incident and queue one message", async () => {
    const rule = await createAlertRule(SYSTEM, slug, {
      name: "degraded-twice",
      kind: "degraded",
      forSeconds: 30,
      endpoint: "hook",
    });
    await record(events(3, { tenantId, keyId: null, route: null, outcome: "degraded" }));
    await until("the incident", async () => {
      await Promise.all([evaluateOnce(rowContext()), evaluateOnce(rowContext()), evaluateOnce(rowContext())]);
      return (await db().alertIncident.count({ where: { ruleId: rule.id } })) > 0;
    });
    await Promise.all([evaluateOnce(rowContext()), evaluateOnce(rowContext())]);
    expect(await db().alertIncident.count({ where: { ruleId: rule.id } })).toBe(1);
    expect(await db().alertDelivery.count({ where: { ruleId: rule.id, event: "firing" } })).toBe(1);
    await until("its delivery", () => arrived("firing", "degraded-twice"));
    await step();
    expect(of("firing", "degraded-twice")).toHaveLength(1);
  });
});
