import { expect, test, type Page } from "@playwright/test";
import { operator, signedIn } from "./support/dashboard";

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
  const limits = page.locator("table.limits").first();
  await expect(limits).toBeVisible();
  const frame = page.getByTestId("scroll-area").filter({ has: limits });
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
  await expect(frame.locator("+ [data-testid=scroll-hint]")).toHaveCount(0);
  await page.setViewportSize({ width: 1280, height: 720 });
});
