import { expect, test, type Page } from "@playwright/test";
import { adminHeaders, seedTenant } from "./support/admin-api";
import { operator, signedIn, uniqueSlug } from "./support/dashboard";

// An operator sets a plan's service limit on the plans page: a burst below a full batch is
// refused under its field and saves nothing; a good one shows on the plan, on its tenant's
// page and in the export.

test.describe.configure({ mode: "serial" });

let page: Page;
const plan = uniqueSlug("svc-plan");
const slug = uniqueSlug("svc-tenant");

test.beforeAll(async ({ browser }) => {
  page = await signedIn(browser, operator);
  const config = await page.request.get("/api/admin/config", { headers: adminHeaders });
  const plans = ((await config.json()) as { plans: unknown[] }).plans;
  const put = await page.request.put("/api/admin/config", {
    headers: adminHeaders,
    data: { plans: [...plans, { name: plan, limits: [] }] },
  });
  expect(put.status(), await put.text()).toBe(200);
  await seedTenant(page, { slug, plan, limits: [] });
});

test("sets a plan's service limit, refusing a burst below 1,000 under its field", async () => {
  await page.goto("/plans");
  const group = page.getByTestId(`plan-${plan}`);
  await group.locator("summary").click();
  await expect(page.getByTestId(`service-limit-${plan}`)).toHaveText("Service limit: none");
  const form = page.getByTestId(`service-form-${plan}`);
  await form.getByLabel("Service checks/s per check front").fill("5000");
  await form.getByLabel("Service burst").fill("500");
  await form.getByRole("button", { name: "Save service limit" }).click();
  await expect(form.getByLabel("Service burst")).toHaveAttribute("aria-invalid", "true");
  await expect(form).toContainText("must be a whole number from 1,000 to 10,000,000");
  await expect(page.getByTestId(`service-limit-${plan}`)).toHaveText("Service limit: none");

  await form.getByLabel("Service burst").fill("10000");
  await form.getByRole("button", { name: "Save service limit" }).click();
  await expect(page.getByTestId(`service-limit-${plan}`)).toHaveText(
    "Service limit: 5,000 checks/s per check front, burst 10,000",
  );
});

test("the tenant's page and the export show it", async () => {
  await page.goto(`/tenants/${slug}`);
  await expect(page.getByTestId("tenant-service-limit")).toHaveText(
    "Service limit: 5,000 checks/s per check front, burst 10,000",
  );
  const config = await page.request.get("/api/admin/config", { headers: adminHeaders });
  const plans = ((await config.json()) as { plans: { name: string; service?: unknown }[] }).plans;
  expect(plans.find((p) => p.name === plan)?.service).toEqual({ checksPerSecond: 5000, burst: 10_000 });
});
