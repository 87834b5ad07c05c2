import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPlansAndRoutes, closeClients, serviceToken, setupTenants, unique } from "./setup";
import { check, post, waitForVersion } from "./http";

// A plan's service limit on the check front: a tenant on a plan of 1 check a second with a
// burst of 1,000 gets a full batch, then 429 over_service_limit with the RateLimit fields
// and Retry-After; the refused check changes no counter; a tenant on another plan is not
// limited by it.

const plan = unique("svcplan");
const limited = unique("lim");
const other = unique("oth");
let token = "";
let otherToken = "";

beforeAll(async () => {
  await addPlansAndRoutes([
    {
      name: plan,
      service: { checksPerSecond: 1, burst: 1000 },
      limits: [{ name: "per-subject", by: "subject", algorithm: "fixed_window", limit: 5000, window: "1h" }],
    },
  ]);
  const setup = await setupTenants([
    { slug: limited, plan },
    { slug: other, plan: "free" },
  ]);
  token = await serviceToken([limited]);
  otherToken = await serviceToken([other]);
  await waitForVersion(setup.version);
});

afterAll(closeClients);

describe("plan service limit on the check front", () => {
  it("admits the burst, then answers 429 with the RateLimit fields and changes no counter", async () => {
    const checks = Array.from({ length: 1000 }, () => ({ tenant: limited, subject: "u" }));
    const batch = await post<{ results: unknown[] }>("/api/check/batch", { checks }, { token });
    expect(batch.status).toBe(200);
    expect(batch.body.results).toHaveLength(1000);

    const refused = await post<{ error: { code: string } }>(
      "/api/check",
      { tenant: limited, subject: "u" },
      { token },
    );
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("over_service_limit");
    expect(refused.headers.get("ratelimit-policy")).toBe('"sluice-service";q=1;w=1');
    expect(refused.headers.get("ratelimit")).toMatch(/^"sluice-service";r=0;t=1$/);
    expect(refused.headers.get("retry-after")).toBe("1");

    // a whole batch is refused whole while the bucket is short of it
    const again = await post("/api/check/batch", { checks: checks.slice(0, 10) }, { token });
    expect(again.status).toBe(429);

    // the refusals made no decision: the subject's counter holds the batch's 1,000 only (a dry run reports as if counted)
    const bootstrapView = await check({ tenant: limited, subject: "u", dryRun: true });
    expect(bootstrapView.status).toBe(200);
    expect(bootstrapView.body.limits[0]?.remaining).toBe(3999); // as if this dry run were counted too
  });

  it("limits only the plan's tenants", async () => {
    const answer = await check({ tenant: other, subject: "u" }, { token: otherToken });
    expect(answer.status).toBe(200);
  });
});
