import { expect, test, type Page } from "@playwright/test";
import { operator, signedIn, uniqueSlug } from "./support/dashboard";
import { seedTenant } from "./support/admin-api";

// The console's rough edges, each where a person would see it: the header at 1,280 px,
// wide tables on a 390 px phone, the limit editor's own validation, the webhook form's
// private-network hint, the Shadow chart and the "data starts here" marker.

let page: Page;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }) => {
  // the first sign-in after the apps start can be slow on a loaded machine
  page = await signedIn(browser, operator, 20_000);
});

test("the header keeps every link on one line at 1,280 px", async () => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto("/");
  const links = page.getByRole("navigation", { name: "Main" }).getByRole("link");
  await expect(links.first()).toBeVisible();
  const boxes = await links.evaluateAll((all) =>
    all.map((a) => {
      const r = a.getBoundingClientRect();
      return {
        top: Math.round(r.top),
        height: r.height,
        lineHeight: parseFloat(getComputedStyle(a).lineHeight),
      };
    }),
  );
  expect(boxes.length).toBeGreaterThanOrEqual(10); // an operator's links
  // one row, and no label broken over two lines
  expect(new Set(boxes.map((b) => b.top)).size).toBe(1);
  for (const b of boxes) expect(b.height).toBeLessThan(1.5 * b.lineHeight);
  await expect(page.getByTestId("signed-in-as")).toBeInViewport();
});

test("a wide table on a phone says it scrolls and keeps its first column in view", async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/tenants/acme");
  const frame = page
    .getByTestId("scroll-area")
    .filter({ has: page.locator("table.limits") })
    .first();
  const limits = frame.locator("table.limits");
  await expect(limits).toBeVisible();
  await expect(page.getByTestId("scroll-hint").first()).toBeVisible();
  // "Comes from" is readable: its list keeps a width, not a letter or two a line
  const chain = limits.locator("ol.chain").first();
  expect((await chain.boundingBox())?.width ?? 0).toBeGreaterThan(200);
  // scrolled to the right, the limit's name stays where it was
  const name = limits.locator("tbody tr").first().locator("> :first-child");
  const before = (await name.boundingBox())?.x;
  await frame.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect.poll(async () => (await name.boundingBox())?.x).toBe(before);
  // at the end there is nothing more to the right: the hint goes
  await expect(frame.locator("xpath=following-sibling::*[1][@data-testid='scroll-hint']")).toHaveCount(0);
  await page.setViewportSize({ width: 1280, height: 720 });
});

test("the limit editor checks as you type with the server's messages; the preview waits", async () => {
  await page.goto("/tenants/acme/limits/edit?at=tenant");
  const editor = page.getByTestId("limit-editor");
  const limit = editor.getByRole("textbox", { name: "Limit", exact: true });
  await editor.getByText("Token bucket", { exact: true }).click();
  await editor.getByRole("textbox", { name: "Window" }).fill("1s");
  await limit.fill("90");
  await expect(page.locator(".burst-chart")).toContainText(/of .* pass/);
  // a negative limit: the field says why before Save, and nothing is simulated
  await limit.fill("-5");
  await expect(editor.locator("#l-limit-msg")).toHaveText("must be at least 1");
  await expect(limit).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("burst-preview-waiting")).toContainText("Limit must be at least 1");
  await expect(page.locator(".burst-chart")).toHaveCount(0);
  // text in a number field: the range it needs, not a library's message
  await limit.fill("lots");
  await expect(editor.locator("#l-limit-msg")).toHaveText(/^must be a whole number from 1 to 1,000,000,000/);
  await limit.fill("90");
  await expect(editor.locator("#l-limit-msg")).not.toHaveClass(/error/);
  await expect(page.locator(".burst-chart")).toContainText(/of .* pass/);
});

test("a private webhook host is refused naming the choice right below the URL", async () => {
  await page.goto("/tenants/acme/alerts");
  const form = page.getByTestId("create-alert-endpoint");
  await form.getByLabel("Name").fill("private-hint");
  await form.getByLabel("URL").fill("http://127.0.0.1:9/hook");
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.locator("#f-url-error")).toContainText(
    'unless "Allow private networks" (allowPrivate) is yes',
  );
  // the choice is the next field after the URL
  const next = form.locator(".field:has(#f-url) + .field");
  await expect(next.getByLabel("Allow private networks (operator)")).toBeVisible();
  // and nothing was added
  await expect(page.getByTestId("endpoint-private-hint")).toHaveCount(0);
});

test("a tenant without shadow limits is told why its shadow panel has no chart", async () => {
  // plan free declares no shadow limit, and initech adds none (the demo configuration)
  await page.goto("/usage/initech");
  const panel = page.getByTestId("shadow-panel");
  await expect(panel.getByTestId("shadow-none")).toContainText("no limit in shadow mode");
  await expect(panel.getByTestId("shadow-chart")).toHaveCount(0);
});

test("a new tenant's 24 h charts mark where its data starts", async () => {
  const slug = uniqueSlug("fresh");
  await seedTenant(page, { slug, limits: [] });
  await page.goto(`/usage/${slug}?range=24h`);
  await expect(page.getByTestId("traffic-chart")).toContainText("data starts here");
});
