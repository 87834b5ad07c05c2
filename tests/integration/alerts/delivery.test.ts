import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverDue } from "@/lib/control/alerts/delivery-worker";
import { resolveTarget } from "@/lib/control/alerts/guard/url-guard";
import { sendWebhook } from "@/lib/control/alerts/send-webhook";
import { createAlertEndpoint } from "@/lib/control/data/alerts/endpoints";
import { createAlertRule } from "@/lib/control/data/alerts/rules";
import { closeDb, db } from "@/lib/control/data/db";
import { importConfig } from "@/lib/control/data/import-config";
import { closeRedis } from "@/lib/shared/redis/redis";
import { events, record, RUN, startReceiver, step, SYSTEM, until, WORKER, type Receiver } from "./support";

// Delivery against a real receiver: retries after 500s with the same delivery id until it
// is taken, the log's attempts and codes; redirects not followed; the SSRF guard at send
// time (a name that resolves to loopback) and an operator-allowed endpoint that reaches
// the local receiver.

let receiver: Receiver;
let tenantId: string;
const slug = `${RUN}-send`;

beforeAll(async () => {
  receiver = await startReceiver();
  await importConfig(SYSTEM, { tenants: [{ slug, name: "Alert delivery test", plan: "free" }] });
  tenantId = (await db().tenant.findUniqueOrThrow({ where: { slug } })).id;
});

afterAll(async () => {
  await receiver.close();
  await closeRedis();
  await closeDb();
});

async function degradedRule(name: string, endpoint: string): Promise<string> {
  const rule = await createAlertRule(SYSTEM, slug, { name, kind: "degraded", forSeconds: 60, endpoint });
  return rule.id;
}

describe("webhook delivery", () => {
  it("retries after 500s with backoff, then logs the delivery with its attempts and code", async () => {
    receiver.answers = [500, 500];
    await createAlertEndpoint(SYSTEM, slug, { name: "flaky", url: receiver.url, allowPrivate: true });
    const ruleId = await degradedRule("retry", "flaky");
    await record(events(1, { tenantId, keyId: null, route: null, outcome: "degraded" }));
    const delivered = await until("delivered", async () => {
      await step();
      return db().alertDelivery.findFirst({ where: { ruleId, status: "delivered" } });
    });
    expect(delivered.attempts).toBe(3);
    expect(delivered.responseCode).toBe(200);
    const sent = receiver.received.filter((r) => r.headers["x-sluice-delivery"] === delivered.id);
    expect(sent).toHaveLength(3);
    // backoff: each retry waited at least the base delay (doubling)
    expect((sent[1]?.at ?? 0) - (sent[0]?.at ?? 0)).toBeGreaterThanOrEqual(WORKER.retryBaseMs - 50);
    expect((sent[2]?.at ?? 0) - (sent[1]?.at ?? 0)).toBeGreaterThanOrEqual(WORKER.retryBaseMs - 50);
    // each attempt signed afresh: timestamps and signatures may differ, the body does not
    expect(new Set(sent.map((s) => s.body)).size).toBe(1);
  });

  it("does not follow redirects", async () => {
    receiver.answers = [302];
    const result = await sendWebhook({
      url: receiver.url,
      body: "{}",
      headers: {},
      allowPrivate: true,
      timeoutMs: 2_000,
    });
    expect(result).toMatchObject({ ok: false, status: 302, error: "redirect (302) not followed" });
    expect(receiver.received.at(-1)?.headers.location).toBeUndefined();
  });

  it("refuses loopback, private and link-local targets for tenants at send time", async () => {
    const before = receiver.received.length;
    // the machine's own name resolves to a loopback or private address (/etc/hosts)
    const port = new URL(receiver.url).port;
    await expect(resolveTarget(`http://${hostname()}:${port}/hook`, false)).rejects.toThrow(
      /private, loopback/,
    );
    for (const url of [
      receiver.url,
      "http://[::1]:1/",
      "http://169.254.169.254/latest",
      "http://10.1.2.3/",
      "http://[::ffff:127.0.0.1]:1/",
    ]) {
      const result = await sendWebhook({
        url,
        body: "{}",
        headers: {},
        allowPrivate: false,
        timeoutMs: 1_000,
      });
      expect(result, url).toMatchObject({ ok: false, permanent: true, status: null });
    }
    // An endpoint whose name resolves to loopback (not refused when made: the name is not
    // an address) fails at once at delivery, never reaching the receiver.
    await createAlertEndpoint(SYSTEM, slug, { name: "sneaky", url: `http://${hostname()}:${port}/hook` });
    const ruleId = await degradedRule("sneaky", "sneaky");
    await record(events(1, { tenantId, keyId: null, route: null, outcome: "degraded" }));
    const failed = await until("failed", async () => {
      await step();
      return db().alertDelivery.findFirst({ where: { ruleId, status: "failed" } });
    });
    expect(failed.attempts).toBe(1);
    expect(failed.lastError).toMatch(/private, loopback or link-local/);
    expect(receiver.received.length).toBe(before);
  });

  it("a disabled endpoint gets nothing more", async () => {
    const { disableAlertEndpoint } = await import("@/lib/control/data/alerts/endpoints");
    await createAlertEndpoint(SYSTEM, slug, { name: "gone", url: receiver.url, allowPrivate: true });
    // its own route: the earlier tests' degraded checks (the apps evaluate all the time) do not match
    const rule = await createAlertRule(SYSTEM, slug, {
      name: "gone",
      kind: "degraded",
      route: "GET /gone",
      forSeconds: 60,
      endpoint: "gone",
    });
    await disableAlertEndpoint(SYSTEM, slug, "gone");
    await record(events(1, { tenantId, keyId: null, route: "GET /gone", outcome: "degraded" }));
    for (let i = 0; i < 3; i++) await step();
    await deliverDue(WORKER);
    expect(await db().alertIncident.count({ where: { ruleId: rule.id } })).toBe(0);
    expect(receiver.received.some((r) => r.body.includes('"name":"gone"'))).toBe(false);
  });
});
