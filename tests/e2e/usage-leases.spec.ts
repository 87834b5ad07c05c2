import { expect, test, type Page } from "@playwright/test";
import { operator, signedIn, uniqueSlug } from "./support/dashboard";
import { adminHeaders, seedTenant } from "./support/admin-api";

// The usage page's Leases panel (docs/dashboard.md): a tenant with a concurrency limit
// takes two leases and releases one; its page draws the leases and counts them. A tenant
// without a concurrency limit has no such panel.

let page: Page;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }) => {
  page = await signedIn(browser, operator, 20_000);
});

/** A check of the tenant (no key) that is admitted with a lease, once the front knows the tenant. */
async function leased(slug: string): Promise<string> {
  let lease = "";
  await expect
    .poll(
      async () => {
        const response = await page.request.post("/api/check", {
          headers: adminHeaders,
          data: { tenant: slug },
        });
        const body = (await response.json()) as { allowed?: boolean; lease?: string };
        lease = body.allowed && body.lease ? body.lease : "";
        return lease !== "";
      },
      { message: "an admitted check with a lease" },
    )
    .toBe(true);
  return lease;
}

test("a tenant with a concurrency limit sees its leases acquired and released", async () => {
  const slug = uniqueSlug("leases");
  await seedTenant(page, {
    slug,
    limits: [{ name: "in-flight", by: "tenant", algorithm: "concurrency", limit: 5, window: "10m" }],
  });
  const first = await leased(slug);
  await leased(slug);
  const released = await page.request.post("/api/check/release", {
    headers: adminHeaders,
    data: { lease: first },
  });
  expect(await released.json()).toEqual({ released: true });
  await page.goto(`/usage/${slug}?range=15m`);
  const panel = page.getByTestId("lease-panel");
  // the page refreshes itself every 2 s: the recorder's flush arrives within one or two
  await expect(panel.getByTestId("lease-totals")).toContainText("2 acquired, 1 released, 0 expired", {
    timeout: 15_000,
  });
  await expect(panel.getByTestId("lease-chart")).toBeVisible();
  await expect(panel.getByTestId("lease-chart").locator(".recharts-bar-rectangle").first()).toBeAttached();
});

test("a tenant without a concurrency limit has no leases panel", async () => {
  // the demo configuration gives initech no concurrency limit
  await page.goto("/usage/initech");
  await expect(page.getByTestId("shadow-panel")).toBeVisible();
  await expect(page.getByTestId("lease-panel")).toHaveCount(0);
});
