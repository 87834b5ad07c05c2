import { spawn, type ChildProcess } from "node:child_process";
import { expect, test, type Page } from "@playwright/test";
import { viewer } from "./support/dashboard";

// The limit hierarchy chart of acme under demo traffic (scripts/demo-traffic.ts against the
// test app), as acme's viewer: drawn with text labels, live, drilled into by click and by
// keyboard, in light, dark and at phone width. Screenshots go to .data/screenshots/.

const SHOTS = ".data/screenshots";
let traffic: ChildProcess | null = null;

// Started after sign-in (scrypt and the traffic would otherwise share a loaded machine's
// cores at the worst moment), stopped when the file ends.
function startTraffic(): void {
  if (traffic) return;
  const port = new URL(process.env.APP_URL ?? "http://localhost:3100").port;
  // node itself (no npx in between), so the SIGTERM at the end stops the traffic
  traffic = spawn(process.execPath, ["--import", "tsx", "scripts/demo-traffic.ts", "--seconds", "60"], {
    env: { ...process.env, PORT: port },
    stdio: "ignore",
  });
}

test.afterAll(() => {
  traffic?.kill("SIGTERM");
});

test.setTimeout(120_000);

async function signIn(page: Page): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(viewer.email);
  await page.getByLabel("Password").fill(viewer.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // attached, not visible: at phone width the header folds it behind the Menu button
  await expect(page.getByTestId("signed-in-as")).toBeAttached({ timeout: 30_000 });
  startTraffic();
}

/** Waits until the chart shows a node with some utilization, i.e. counters arrived. */
async function chartLive(page: Page): Promise<void> {
  const tree = page.getByTestId("limit-tree");
  await expect(tree.getByRole("heading", { name: "Limit hierarchy" })).toBeVisible();
  // it polls only while on screen
  await tree.scrollIntoViewIfNeeded();
  await expect(page.getByTestId("limit-tree-status")).toContainText("counters read in", { timeout: 30_000 });
  await expect(tree.getByTestId("limit-tree-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(page.getByTestId("tree-node-plan")).toContainText(/[1-9]\d*% (ok|high|at limit)/, {
    timeout: 20_000,
  });
}

test("the limit tree of a tenant under demo traffic: live, drill-down, light and dark", async ({
  browser,
}) => {
  const page = await (await browser.newContext()).newPage();
  await signIn(page);
  await page.goto("/tenants/acme");
  await chartLive(page);
  const tree = page.getByTestId("limit-tree");
  // text labels, not only colour: the plan, the tenant and acme's keys, each with words
  await expect(page.getByTestId("tree-node-tenant")).toContainText("tenant acme");
  // what binds it, with its share left; and what its own limits denied
  await expect(page.getByTestId("tree-node-key:backend")).toContainText(
    /binds: (plan|tenant|key|route \S+ \S+) \([a-z0-9-]+, [\d,]+ left, \d+%\)/,
  );
  await expect(page.getByTestId("tree-node-key:backend")).toContainText(/[\d,]+ rejected by its limits/);
  // live: the update time moves with the 2 s poll
  const first = await page.getByTestId("limit-tree-status").textContent();
  await expect(page.getByTestId("limit-tree-status")).not.toHaveText(first ?? "", { timeout: 10_000 });
  await tree.screenshot({ path: `${SHOTS}/limit-tree-light.png` });

  // keyboard: Tab onto the backend key's node and open it with Enter
  await page.getByTestId("tree-node-key:backend").focus();
  await page.keyboard.press("Enter");
  await expect(tree.getByText("› key backend: its routes and subject limits")).toBeVisible();
  await expect(page.getByTestId("tree-node-key-route:backend POST /v1/search")).toBeVisible({
    timeout: 10_000,
  });
  // backend sends search more than its 5 a second: the route's own limit denies, on the route's row
  await expect(page.getByTestId("tree-node-key-route:backend POST /v1/search")).toContainText(
    /[1-9][\d,]* rejected by its limits/,
    { timeout: 30_000 },
  );
  const details = page.getByTestId("limit-node-details");
  await expect(details).toContainText("key-rps");
  await expect(details).toContainText("key override");
  await expect(details).toContainText("100 per 1 s, burst 200");

  // click a route of the key: the keys that use it most
  await page.getByTestId("tree-node-key-route:backend POST /v1/search").click();
  await expect(tree.getByText("› route POST /v1/search: the keys that use it most")).toBeVisible();
  await expect(page.getByTestId("tree-node-route:POST /v1/search")).toBeVisible({ timeout: 10_000 });
  const user = tree.locator("[data-testid^='tree-node-key-route:']").first();
  await expect(user).toBeVisible({ timeout: 10_000 });
  await tree.screenshot({ path: `${SHOTS}/limit-tree-route.png` });
  // a key using the route: that key opens, its node on the route in the details
  await user.click();
  await expect(tree.getByText(/› key \S+: its routes and subject limits/)).toBeVisible();
  await expect(details).toContainText("POST /v1/search");
  await expect(details).toContainText("5 per 1 s · gcra · by key");

  await page.emulateMedia({ colorScheme: "dark" });
  await tree.locator("[data-testid^='tree-node-key-route:']").first().focus();
  await tree.screenshot({ path: `${SHOTS}/limit-tree-dark.png` });
  await page.getByRole("button", { name: "Whole tenant acme" }).click();
  await expect(page.getByTestId("tree-node-key:backend")).toBeVisible({ timeout: 10_000 });
});

test("the limit tree on the usage page at phone width", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await signIn(page);
  await page.goto("/usage/acme");
  await chartLive(page);
  const tree = page.getByTestId("limit-tree");
  await tree.scrollIntoViewIfNeeded();
  // nothing of the panel wider than the phone
  const overflow = await tree.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await tree.screenshot({ path: `${SHOTS}/limit-tree-phone.png` });
  await page.getByTestId("tree-node-key:mobile").click();
  await expect(page.getByTestId("limit-node-details")).toBeVisible({ timeout: 10_000 });
  await tree.screenshot({ path: `${SHOTS}/limit-tree-phone-key.png` });
  await context.close();
});
