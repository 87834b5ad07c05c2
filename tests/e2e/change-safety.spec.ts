// Change safety in the console: the limit editor shows current -> proposed before Save;
// after Save the row saved (a key's limit, not the tenant's row of the same name) is the
// one highlighted and in view, beside the confirmation, which offers Undo; a history entry
// is reverted on its own, and refused, saying why, when a later change touched it.
import { expect, test, type Page } from "@playwright/test";
import { operator, signedIn, uniqueSlug } from "./support/dashboard";
import { adminHeaders, firstPlan } from "./support/admin-api";

interface Exported {
  tenants?: {
    slug: string;
    limits: { name: string; limit?: number }[];
    keys?: { name: string; limits: { name: string; limit?: number }[] }[];
  }[];
}

// a page load, a save and a version each; the shared 2-core machine can make each slow
test.setTimeout(150_000);

const cap = (limit: number) => ({
  name: "cs-cap",
  by: "tenant",
  algorithm: "fixed_window",
  limit,
  window: "1m",
});

async function putTenant(page: Page, slug: string, limits: object[], keys: object[] = []): Promise<void> {
  const put = await page.request.put("/api/admin/config", {
    headers: adminHeaders,
    data: { tenants: [{ slug, plan: await firstPlan(page), limits, keys }] },
  });
  expect(put.status(), await put.text()).toBe(200);
}

async function exported(page: Page, slug: string) {
  const config = (await (
    await page.request.get("/api/admin/config", { headers: adminHeaders })
  ).json()) as Exported;
  const tenant = config.tenants?.find((t) => t.slug === slug);
  if (!tenant) throw new Error(`no tenant ${slug}`);
  return tenant;
}

test("a key's limit: current -> proposed, the key's row highlighted after Save, and Undo", async ({
  browser,
}) => {
  const slug = uniqueSlug("e2e-csafe");
  const page = await signedIn(browser, operator, 60_000);
  // many tenant limits above, so the key's row sits far down the page
  const filler = Array.from({ length: 30 }, (_, i) => ({ ...cap(100 + i), name: `filler-${i}` }));
  await putTenant(page, slug, [cap(10), ...filler], [{ name: "backend", limits: [cap(5)] }]);
  await page.goto(`/tenants/${slug}/limits/edit?at=key&key=backend&name=cs-cap`);
  const editor = page.getByTestId("limit-editor");
  await expect(editor.getByTestId("proposed-change")).toContainText("Nothing yet");
  await editor.getByRole("textbox", { name: "Limit", exact: true }).fill("7");
  await expect(editor.getByTestId("proposed-limit")).toContainText(/5\s*→\s*7/);
  await editor.getByRole("button", { name: "Save limit" }).click();
  await expect(page).toHaveURL(/saved=cs-cap&in=key%3Abackend&v=\d+/);

  const keyRow = page.locator('[data-scope="key:backend"][data-testid="limit-cs-cap"]');
  const tenantRow = page.locator('[data-scope="tenant"][data-testid="limit-cs-cap"]');
  await expect(keyRow).toHaveClass(/just-saved/);
  await expect(tenantRow).not.toHaveClass(/just-saved/);
  await expect(keyRow).toBeInViewport();
  const notice = page.getByTestId("saved-notice");
  await expect(notice).toBeInViewport();
  expect((await exported(page, slug)).keys?.[0]?.limits[0]?.limit).toBe(7);

  await notice.getByRole("button", { name: "Undo" }).click();
  await expect(notice.getByTestId("undo-done")).toContainText("cs-cap is as it was");
  expect((await exported(page, slug)).keys?.[0]?.limits[0]?.limit).toBe(5);
  await page.goto(`/tenants/${slug}/history`);
  const versions = page.getByRole("list", { name: "Config versions" }).locator(":scope > li");
  await expect(versions.first()).toContainText("config.undo");
});

test("revert this change: applied on its own as a new version, refused when touched since", async ({
  browser,
}) => {
  const slug = uniqueSlug("e2e-revert");
  const page = await signedIn(browser, operator, 60_000);
  await putTenant(page, slug, [cap(10)]);
  await putTenant(page, slug, [cap(25)]);
  await putTenant(page, slug, [cap(25), { ...cap(3), name: "other" }]);
  await page.goto(`/tenants/${slug}/history`);
  const versions = page.getByRole("list", { name: "Config versions" }).locator(":scope > li");
  await expect(versions).toHaveCount(3);
  // the middle version: cs-cap 10 -> 25; the newest added another limit
  const middle = versions.nth(1);
  await middle.getByRole("button", { name: "Revert this change" }).click();
  await middle.getByRole("button", { name: "Revert it" }).click();
  await expect(versions).toHaveCount(4);
  await expect(versions.first()).toContainText("config.revert");
  const tenant = await exported(page, slug);
  expect(tenant.limits.map((l) => [l.name, l.limit])).toEqual([
    ["cs-cap", 10],
    ["other", 3],
  ]);

  // cs-cap changed again since the 10 -> 25 version: reverting that one now is refused,
  // saying what moved, and writes nothing
  await putTenant(page, slug, [cap(40), { ...cap(3), name: "other" }]);
  await page.reload();
  await expect(versions).toHaveCount(5);
  const original = versions.nth(3);
  await original.getByRole("button", { name: "Revert this change" }).click();
  await original.getByRole("button", { name: "Revert it" }).click();
  await expect(original.getByRole("alert")).toContainText("limits[name=cs-cap].limit: now 40");
  await expect(versions).toHaveCount(5);
});
