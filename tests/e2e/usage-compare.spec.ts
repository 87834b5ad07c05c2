// The usage charts' comparison with the previous period: the toggle keeps its state in the
// address, draws the previous period as a faded series and gives its totals with the change.
import { expect, test } from "@playwright/test";
import { check, operator, screenshot, signedIn } from "./support/dashboard";

test("the traffic chart compares with the previous period, with totals and the change", async ({
  browser,
}) => {
  const page = await signedIn(browser, operator);
  // a few checks now, so the current period has traffic the previous one lacks
  for (let i = 0; i < 3; i++) await check(page, { tenant: "acme", subject: "compare-e2e" });
  await page.goto("/usage/acme?range=1h");
  await page.getByTestId("compare-toggle").click();
  await expect(page).toHaveURL(/compare=1/);
  const summary = page.getByTestId("compare-previous");
  await expect(summary).toContainText(/previous period: [\d.]+k? checks \(now (new|no change|[+−][\d.]+%)\)/);
  await expect(summary).toContainText(/rejected \(now /);
  await expect(page.getByTestId("traffic-chart").getByText("previous period")).toBeVisible();
  await screenshot(page, "usage-compare");
  // the live refresh keeps the comparison (the poll asks for it too)
  const live = await page.request.get("/api/usage-live?tenant=acme&range=1h&compare=1");
  expect(live.status()).toBe(200);
  const body = (await live.json()) as { series: unknown[]; previous: { checks: number[] } | null };
  expect(body.previous?.checks).toHaveLength(body.series.length);
  await page.getByTestId("compare-toggle").click();
  await expect(page).not.toHaveURL(/compare=1/);
  await expect(page.getByTestId("traffic-chart").getByText("previous period")).toHaveCount(0);
});
