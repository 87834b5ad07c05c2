import { expect, test, type Page } from "@playwright/test";

// The usage page: log in, send known traffic through /api/check, see it drawn (the series'
// paths and the tooltip's numbers, not just the chart boxes), switch ranges (the resolution
// follows) and watch live updates arrive. Screenshots go to .data/screenshots/.

const email = process.env.SLUICE_ADMIN_EMAIL ?? "admin@sluice.test";
const password = process.env.SLUICE_ADMIN_PASSWORD ?? "test-admin-password";
const token = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000";

async function login(page: Page): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
}

/** acme/backend: `allowed` admitted checks on a free route, then a burst on the 5/s search route. */
async function sendTraffic(page: Page, searches: number): Promise<{ allowed: number; rejected: number }> {
  const tally = { allowed: 0, rejected: 0 };
  const send = async (route: string) => {
    const response = await page.request.post("/api/check", {
      headers: { authorization: `Bearer ${token}` },
      data: { tenant: "acme", key: "backend", route, subject: "203.0.113.77" },
    });
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { allowed: boolean };
    if (body.allowed) tally.allowed++;
    else tally.rejected++;
  };
  await Promise.all(Array.from({ length: searches }, () => send("POST /v1/search")));
  return tally;
}

test("the usage charts draw fresh traffic, change resolution with the range and update live", async ({
  page,
}) => {
  // Its waits are each bounded (together over 80 s, besides the hover steps and the page
  // loads); at the end of the full suite on a loaded 2-core machine it once took over 60 s.
  test.setTimeout(150_000);
  await login(page);
  // On a loaded machine the limiter's breaker may open for a moment and answer degraded
  // (fail open, as the contract says): send bursts until one is limited.
  await expect(async () => {
    const sent = await sendTraffic(page, 30);
    expect(sent.rejected).toBeGreaterThan(0);
  }).toPass({ timeout: 20_000 });

  await page.goto("/usage/acme");
  await expect(page.getByRole("heading", { name: "Usage of acme" })).toBeVisible();
  // the live poll brings the just-flushed second in within a few seconds
  const traffic = page.getByTestId("traffic-chart");
  await expect(traffic.locator(".recharts-area-area").first()).toHaveAttribute("d", /L/, { timeout: 15_000 });
  await expect(page.getByTestId("live-status")).toContainText("rejected", { timeout: 10_000 });
  await expect(async () => {
    const rejectedPath = await traffic.locator(".recharts-area-area").nth(1).getAttribute("d");
    // a stacked area that rises somewhere: not a flat line at the baseline
    const ys = (rejectedPath ?? "").match(/[\d.]+,[\d.]+/g)?.map((p) => Number(p.split(",")[1])) ?? [];
    expect(new Set(ys.map(Math.round)).size).toBeGreaterThan(1);
  }).toPass({ timeout: 15_000 });

  // hover over the rightmost area of the chart until the tooltip shows a bucket with rejections
  const box = await traffic.locator("svg.recharts-surface[role=application]").boundingBox();
  if (!box) throw new Error("no chart surface");
  let tooltip = "";
  // Buckets are a few pixels wide at 15 min / 5 s and the burst sits in the newest ones at
  // the right edge: start there and step finer than a bucket so none is skipped.
  for (let x = box.x + box.width - 1; x > box.x + 60 && !/Rejected\s*:\s*[1-9]/.test(tooltip); x -= 2) {
    await page.mouse.move(x, box.y + box.height / 2);
    tooltip = (await traffic.locator(".recharts-tooltip-wrapper").textContent()) ?? "";
  }
  expect(tooltip).toMatch(/Rejected\s*:\s*[1-9]/);
  expect(tooltip).toMatch(/Allowed\s*:\s*\d/);
  await page.screenshot({ path: ".data/screenshots/usage-tenant.png", fullPage: true });

  // breakdown by key shows backend with its rejections; drill down to the key
  await expect(page.getByTestId("breakdown-key").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await page.getByRole("link", { name: "backend" }).first().click();
  await expect(page).toHaveURL(/key=backend/);
  await expect(page.getByTestId("breakdown-route").locator(".recharts-bar-rectangle").first()).toBeVisible({
    timeout: 10_000,
  });
  await page.getByRole("link", { name: "POST /v1/search" }).first().click();
  await expect(page).toHaveURL(/route=POST/);
  await page.screenshot({ path: ".data/screenshots/usage-drilldown.png", fullPage: true });

  // live updates: the update time moves while the page stays open
  const first = await page.getByTestId("live-updated").getAttribute("datetime");
  await expect(page.getByTestId("live-updated")).not.toHaveAttribute("datetime", first ?? "", {
    timeout: 6_000,
  });

  // range picker: 15 min at 5 s, 24 h at 5 min, 7 d at 1 h
  await page.goto("/usage/acme");
  await expect(page.getByTestId("resolution")).toHaveText("resolution: 5 s");
  await page.getByRole("link", { name: "24 h" }).click();
  await expect(page).toHaveURL(/range=24h/);
  await expect(page.getByTestId("resolution")).toHaveText("resolution: 5 min");
  const ticks = await traffic.locator(".recharts-cartesian-axis-tick-value").allTextContents();
  expect(ticks.length).toBeGreaterThan(1);
  await page.getByRole("link", { name: "7 d" }).click();
  await expect(page.getByTestId("resolution")).toHaveText("resolution: 1 h");
  await expect(page.getByTestId("traffic-chart").locator(".recharts-area-area").first()).toHaveAttribute(
    "d",
    /L/,
  );
  await page.screenshot({ path: ".data/screenshots/usage-7d.png", fullPage: true });

  await page.goto("/usage");
  await expect(page.getByTestId("breakdown-tenant")).toBeVisible();
  await page.screenshot({ path: ".data/screenshots/usage-overview.png", fullPage: true });
});
