import { expect, test, type Page } from "@playwright/test";
import { adminHeaders, seedTenant } from "./support/admin-api";
import { check, operator, signedIn, uniqueSlug } from "./support/dashboard";
import { SHOTS } from "./support/shots";

// The what-if replay in the limit editor (docs/replay.md): real checks are recorded by the
// running app, the editor lowers a limit, and the replay shows what the lower limit would
// have rejected of that traffic against what today's rejected. Screenshots (light, dark,
// 390 px) go to tests/e2e/screenshots/replay-*.png, looked at by a person, not diffed.

const slug = uniqueSlug("replay");
let page: Page;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }) => {
  // the first sign-in after the apps start can be slow on a loaded machine
  page = await signedIn(browser, operator, 30_000);
  const limits = [{ name: "replay-burst", by: "key", algorithm: "token_bucket", limit: 100, window: "1s" }];
  await seedTenant(page, { slug, name: "Replay demo", limits }, ["web", "batch"]);
  // a burst from two keys: today's limit (100/s) admits it, a limit of 2/s would not
  await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      check(page, {
        tenant: slug,
        key: i % 3 === 0 ? "web" : "batch",
        route: "GET /v1/items/1",
        subject: `10.0.0.${i % 4}`,
      }),
    ),
  );
});

test("lowering a limit shows what the recorded traffic would have met", async () => {
  await page.goto(`/tenants/${slug}/limits/edit?at=tenant&name=replay-burst`);
  const editor = page.getByTestId("limit-editor");
  await editor.getByRole("textbox", { name: "Limit", exact: true }).fill("2");
  const panel = page.getByTestId("replay-panel");
  await expect(panel).toContainText("What-if replay");
  // the recorder flushes every second: replay until the burst is in
  await expect(async () => {
    await panel.getByRole("button", { name: "Replay" }).click();
    await expect(page.getByTestId("replay-summary")).toContainText(/^30 recorded checks/, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const summary = page.getByTestId("replay-summary");
  await expect(summary).toContainText("The current limit would have rejected 0;");
  const proposed = Number((await summary.locator("strong").innerText()).replace(/,/g, ""));
  expect(proposed).toBeGreaterThan(0);
  expect(proposed).toBeLessThan(30);
  await expect(page.getByTestId("replay-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  const top = page.getByTestId("replay-top");
  await expect(top).toContainText("batch");
  await expect(top).toContainText("web");
  await page.getByTestId("replay-caveats").locator("summary").click();
  await expect(page.getByTestId("replay-caveats")).toContainText("spread evenly");
  await page.emulateMedia({ colorScheme: "light" });
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/replay-light.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${SHOTS}/replay-dark.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("replay-chart")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await page.screenshot({ path: `${SHOTS}/replay-390.png`, fullPage: true });
  // nothing was saved: the limit still reads 100
  await page.goto(`/tenants/${slug}/limits/edit?at=tenant&name=replay-burst`);
  await expect(
    page.getByTestId("limit-editor").getByRole("textbox", { name: "Limit", exact: true }),
  ).toHaveValue("100");
});

test("a subject limit says what the replay cannot know; another tenant's limit is not found", async () => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(`/tenants/${slug}/limits/edit?at=tenant`);
  const editor = page.getByTestId("limit-editor");
  await editor.getByLabel("Name").fill("per-ip");
  await editor.getByLabel("Counted per").selectOption("subject");
  await editor.getByText("Sliding log", { exact: true }).click();
  await editor.getByRole("textbox", { name: "Limit", exact: true }).fill("3");
  await editor.getByRole("textbox", { name: "Window" }).fill("1h");
  // subject series are written every 15 s: replay until they are in
  await expect(async () => {
    await page.getByTestId("replay-panel").getByRole("button", { name: "Replay" }).click();
    await expect(page.getByTestId("replay-summary")).toContainText(
      "30 recorded checks. Without this limit, none;",
      { timeout: 2_000 },
    );
  }).toPass({ timeout: 45_000 });
  // 4 subjects x 3 an hour admitted: 18 of the 30 would be rejected
  await expect(page.getByTestId("replay-summary").locator("strong")).toHaveText("18");
  await expect(page.getByTestId("replay-top")).toContainText("10.0.0.0");
  await page.getByTestId("replay-caveats").locator("summary").click();
  await expect(page.getByTestId("replay-caveats")).toContainText("busiest 50 subjects");
  // the replay API refuses a range past an hour, naming the field
  const tooLong = await page.request.post("/api/admin/replay", {
    headers: adminHeaders,
    data: {
      tenant: slug,
      by: "key",
      current: null,
      proposed: {
        algorithm: "gcra",
        limit: 1,
        windowMs: 1000,
        burst: null,
        action: "reject",
        maxDelayMs: null,
      },
      minutes: 10_000,
    },
  });
  expect(tooLong.status()).toBe(400);
  expect(JSON.stringify(await tooLong.json())).toContain("minutes");
});
