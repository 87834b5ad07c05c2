import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClients, FREE_PLAN_OFF, serviceToken, setupTenants, unique } from "./setup";
import { APP_URL, decide, waitForVersion } from "./http";
import { waitFor } from "../../wait-for";

// The check front's fair share (lib/enforce/fair): one tenant's token floods the front with
// more batches than its queue holds; the flood is the one refused (429 over_fair_share, with
// Retry-After and RateLimit fields), and another caller's check, sent while the flood's
// accepted batches still wait, is answered before the last of them: it waits behind at most
// a chunk of the flood, not behind the whole of it.

const flooder = unique("fld");
const quiet = unique("qui");
let floodToken = "";

const BATCHES = 12;
const body = JSON.stringify({
  checks: Array.from({ length: 1000 }, (_, i) => ({ tenant: flooder, subject: `s${i}` })),
});

interface Sent {
  status: number;
  at: number;
  headers: Headers;
  code?: string;
}

async function sendBatch(): Promise<Sent> {
  const response = await fetch(`${APP_URL}/api/check/batch`, {
    method: "POST",
    headers: { authorization: `Bearer ${floodToken}`, "content-type": "application/json" },
    body,
  });
  const answer = (await response.json()) as { error?: { code: string } };
  return {
    status: response.status,
    at: performance.now(),
    headers: response.headers,
    code: answer.error?.code,
  };
}

/** The front's count of requests refused for their fair share. */
async function fairRefusals(): Promise<number> {
  const text = await (await fetch(`${APP_URL}/api/metrics`)).text();
  return Number(/^sluice_check_refusals_total\{reason="fair_share"\} (\d+)$/m.exec(text)?.[1] ?? 0);
}

beforeAll(async () => {
  const setup = await setupTenants([
    {
      slug: flooder,
      plan: "free",
      limits: [...FREE_PLAN_OFF, { name: "each", by: "subject", algorithm: "gcra", limit: 10, window: "1s" }],
    },
    { slug: quiet, plan: "free", limits: FREE_PLAN_OFF },
  ]);
  floodToken = await serviceToken([flooder]);
  await waitForVersion(setup.version);
});

afterAll(closeClients);

describe("fair share of the check front", () => {
  it("refuses the flooding tenant's excess and answers another caller before the flood's queue", async () => {
    const refusedBefore = await fairRefusals();
    const flood = Array.from({ length: BATCHES }, () => sendBatch());
    const allDone = Promise.all(flood);
    // once one batch is refused the tenant's queue is full: thousands of its checks wait (the
    // refusal itself is answered later, held: see the next test)
    await waitFor(async () => (await fairRefusals()) > refusedBefore, "a fair-share refusal", 10_000, 10);
    const quietDecision = await decide({ tenant: quiet, subject: "q" });
    const quietAt = performance.now();
    const sent = await allDone;

    expect(quietDecision).toMatchObject({ allowed: true, tenant: quiet });
    const accepted = sent.filter((s) => s.status === 200);
    const refusals = sent.filter((s) => s.status === 429);
    expect(refusals.length).toBeGreaterThan(0);
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length + refusals.length).toBe(BATCHES);
    for (const refusal of refusals) {
      expect(refusal.code).toBe("over_fair_share");
      expect(refusal.headers.get("retry-after")).toBe("1");
      expect(refusal.headers.get("ratelimit-policy")).toMatch(/^"sluice-fair-share";q=\d+;w=1$/);
      expect(refusal.headers.get("ratelimit")).toBe('"sluice-fair-share";r=0;t=1');
    }
    const lastAccepted = Math.max(...accepted.map((s) => s.at));
    expect(quietAt).toBeLessThan(lastAccepted);
  });

  it("holds a refusal a quarter of a second, so a flood that ignores Retry-After cannot spin on 429s", async () => {
    const sentAt = performance.now();
    const flood = await Promise.all(Array.from({ length: BATCHES }, () => sendBatch()));
    const refusals = flood.filter((s) => s.status === 429);
    expect(refusals.length).toBeGreaterThan(0);
    for (const refusal of refusals) expect(refusal.at - sentAt).toBeGreaterThanOrEqual(240);
  });

  it("serves the flooding tenant again once its queue drained", async () => {
    const again = await sendBatch();
    expect(again.status).toBe(200);
  });
});
