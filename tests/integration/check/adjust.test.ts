import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClients, FREE_PLAN_OFF, serviceToken, setupTenants, unique } from "./setup";
import { APP_URL, APP_URL_2, decide, post, waitForVersion, type ErrorAnswer } from "./http";
import { waitFor } from "../../wait-for";

// POST /api/check/adjust over HTTP, on both app processes: ids only for adjustable checks,
// refunds and charges seen by the next check, idempotency, every refusal naming its field,
// tenant isolation, and concurrent adjustments of one check from two servers.

const slug = unique("adj");
const other = unique("adj-other");
let version = 0;

interface Adjusted {
  checkId: string;
  replayed: boolean;
  held: number;
  effects: string[];
}

const adjust = (body: unknown, options: { token?: string; url?: string } = {}) =>
  post<Adjusted & ErrorAnswer>("/api/check/adjust", body, options);

beforeAll(async () => {
  const setup = await setupTenants([
    {
      slug,
      plan: "free",
      limits: [
        ...FREE_PLAN_OFF,
        { name: "hourly", by: "tenant", algorithm: "fixed_window", limit: 100, window: "1h" },
        { name: "bucket", by: "tenant", algorithm: "token_bucket", limit: 50, window: "1h" },
      ],
    },
    { slug: other, plan: "free", limits: [...FREE_PLAN_OFF] },
  ]);
  version = setup.version;
  await waitForVersion(version);
  await waitForVersion(version, APP_URL_2);
});
afterAll(closeClients);

const remaining = async (name: string): Promise<number | null | undefined> => {
  const d = await decide({ tenant: slug, dryRun: true });
  return d.limits.find((l) => l.name === name)?.remaining;
};

describe("POST /api/check/adjust", () => {
  it("answers a checkId only to adjustable checks that Redis counted", async () => {
    const plain = await decide({ tenant: slug });
    expect(plain.checkId).toBeUndefined();
    const dry = await decide({ tenant: slug, adjustable: true, dryRun: true });
    expect(dry.checkId).toBeUndefined();
    const adjustable = await decide({ tenant: slug, adjustable: true });
    expect(adjustable.allowed).toBe(true);
    expect(adjustable.checkId).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect((adjustable.checkId ?? "").length).toBeLessThan(600);
  });

  it("refunds and charges, seen by the next check on either server", async () => {
    const before = await remaining("hourly");
    const d = await decide({ tenant: slug, adjustable: true, cost: 4 });
    expect(await remaining("hourly")).toBe((before ?? 0) - 4);
    const refund = await adjust({ checkId: d.checkId, amount: -4 }, { url: APP_URL_2 });
    expect(refund.status).toBe(200);
    expect(refund.body).toMatchObject({ checkId: d.checkId, replayed: false, held: 0 });
    // the window's count goes back exactly; the bucket may have refilled part of it already
    expect(refund.body.effects).toHaveLength(2);
    expect(refund.body.effects.every((e) => e === "applied" || e === "clamped")).toBe(true);
    expect(await remaining("hourly")).toBe(before);
    const charge = await adjust({ checkId: d.checkId, amount: 10, idempotencyKey: "tokens" });
    expect(charge.body.held).toBe(10);
    expect(await remaining("hourly")).toBe((before ?? 0) - 10);
  });

  it("is idempotent per checkId and idempotencyKey", async () => {
    const d = await decide({ tenant: slug, adjustable: true, cost: 3 });
    const before = await remaining("bucket");
    const first = await adjust({ checkId: d.checkId, amount: -2, idempotencyKey: "k1" });
    const again = await adjust({ checkId: d.checkId, amount: -2, idempotencyKey: "k1" }, { url: APP_URL_2 });
    expect(first.body.replayed).toBe(false);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, replayed: true });
    // + 2, and the refill of these few ms (50 an hour) may cross one more whole token
    expect(await remaining("bucket")).toBeGreaterThanOrEqual((before ?? 0) + 2);
    expect(await remaining("bucket")).toBeLessThanOrEqual((before ?? 0) + 3);
    // another key is another adjustment; the default key ("") one more
    expect((await adjust({ checkId: d.checkId, amount: -1, idempotencyKey: "k2" })).body.held).toBe(0);
    const over = await adjust({ checkId: d.checkId, amount: -1 });
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({ code: "over_refund", path: "amount" });
    expect(over.body.error.message).toContain("the 0 units the check holds");
  });

  it("refuses bad bodies and ids naming the field, and changes nothing", async () => {
    const d = await decide({ tenant: slug, adjustable: true });
    const id = d.checkId ?? "";
    const before = await remaining("hourly");
    const cases: Array<[unknown, string]> = [
      [{ checkId: id, amount: 0 }, "amount"],
      [{ checkId: id, amount: 1.5 }, "amount"],
      [{ checkId: id }, "amount"],
      [{ amount: -1 }, "checkId"],
      [{ checkId: id, amount: -1, idempotencyKey: "" }, "idempotencyKey"],
      [{ checkId: id, amount: -1, cots: 1 }, "cots"],
      [{ checkId: "not-an-id", amount: -1 }, "checkId"],
      [{ checkId: `${id.slice(0, 10)}${id[10] === "A" ? "B" : "A"}${id.slice(11)}`, amount: -1 }, "checkId"],
      [{ checkId: `${id.split(".")[0]}.AAAAAAAAAAAAAAAAAAAAAA`, amount: -1 }, "checkId"],
    ];
    for (const [body, path] of cases) {
      const answer = await adjust(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.path, JSON.stringify(body)).toBe(path);
      expect(answer.body.error.message.startsWith(`${path}: `)).toBe(true);
    }
    const huge = await adjust({ checkId: id, amount: 1_000_000 });
    expect(huge.status).toBe(409);
    expect(huge.body.error).toMatchObject({ code: "over_charge", path: "amount" });
    expect(await remaining("hourly")).toBe(before);
    const unauthorized = await adjust({ checkId: id, amount: -1 }, { token: "st_nope" });
    expect(unauthorized.status).toBe(401);
  });

  it("keeps tenants apart: another tenant's token cannot adjust a check", async () => {
    const d = await decide({ tenant: slug, adjustable: true });
    const before = await remaining("hourly");
    const othersToken = await serviceToken([other]);
    // a new token is known to the servers once its config version is published
    const foreignTry = () => adjust({ checkId: d.checkId, amount: -1 }, { token: othersToken });
    await waitFor(async () => (await foreignTry()).status !== 401, "the other tenant's token published");
    const foreign = await foreignTry();
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: "not_found", path: "checkId" });
    expect(await remaining("hourly")).toBe(before);
    const ownToken = await serviceToken([slug]);
    let own = 0;
    await waitFor(async () => {
      own = (await adjust({ checkId: d.checkId, amount: -1 }, { token: ownToken })).status;
      return own !== 401;
    }, "the tenant's own token published");
    expect(own).toBe(200);
  });

  it("under concurrent refunds from two servers, never refunds more than the check holds", async () => {
    const d = await decide({ tenant: slug, adjustable: true, cost: 5 });
    const before = await remaining("hourly");
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        adjust(
          { checkId: d.checkId, amount: -1, idempotencyKey: `r${i}` },
          { url: i % 2 ? APP_URL_2 : APP_URL },
        ),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    expect(await remaining("hourly")).toBe((before ?? 0) + 5);
    // the same key from both servers at once: applied once, replayed otherwise
    const e = await decide({ tenant: slug, adjustable: true, cost: 5 });
    const same = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        adjust(
          { checkId: e.checkId, amount: -2, idempotencyKey: "once" },
          { url: i % 2 ? APP_URL_2 : APP_URL },
        ),
      ),
    );
    expect(same.every((a) => a.status === 200 && a.body.held === 3)).toBe(true);
    expect(same.filter((a) => !a.body.replayed)).toHaveLength(1);
  });

  it("answers 405 to other methods", async () => {
    const response = await fetch(`${APP_URL}/api/check/adjust`, { method: "GET" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});
