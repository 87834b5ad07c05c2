// Rotating an API key from the keys page: the new secret is shown once, the row names the
// old secret's prefix and when it stops, and both secrets pass checks as the same key.
import { expect, test } from "@playwright/test";
import { check, operator, screenshot, signedIn, uniqueSlug } from "./support/dashboard";
import { adminHeaders, seedTenant } from "./support/admin-api";

test("an editor rotates a key with a grace period; both secrets work meanwhile", async ({ browser }) => {
  const slug = uniqueSlug("e2e-rot");
  const page = await signedIn(browser, operator);
  await seedTenant(page, { slug, limits: [] });
  const created = await page.request.post(`/api/admin/tenants/${slug}/keys`, {
    headers: adminHeaders,
    data: { name: "backend" },
  });
  expect(created.status()).toBe(201);
  const old = ((await created.json()) as { key: string }).key;
  await expect.poll(async () => (await check(page, { apiKey: old, dryRun: true })).reason).toBe("ok");

  await page.goto(`/tenants/${slug}/keys`);
  const form = page.getByTestId("rotate-key");
  await form.getByLabel("Key").selectOption("backend");
  await form.getByLabel("Old secret keeps working for").selectOption("1 hour");
  await form.getByRole("button", { name: "Rotate key" }).click();
  await expect(form.getByRole("status")).toContainText("API key backend rotated");
  const fresh = (await form.getByTestId("secret-value").textContent()) ?? "";
  expect(fresh).toMatch(/^sk_/);
  expect(fresh).not.toBe(old);
  await expect(page.getByTestId("key-backend").getByTestId("key-previous")).toContainText(
    `old secret ${old.slice(0, 11)}…`,
  );
  await screenshot(page, "keys-rotated");

  // the new configuration reaches the check servers within about a second
  await expect.poll(async () => (await check(page, { apiKey: fresh, dryRun: true })).reason).toBe("ok");
  const byOld = await check(page, { apiKey: old, dryRun: true });
  expect(byOld).toMatchObject({ allowed: true, reason: "ok" });
});
