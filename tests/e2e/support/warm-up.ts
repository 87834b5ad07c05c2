import { chromium, type FullConfig } from "@playwright/test";
import { operator, signIn } from "./dashboard";

// Before any spec: one operator sign-in and a tenant page, given up to 3 minutes. The first
// requests after the apps start load the route modules, next-auth and the database pool,
// which on a loaded machine took past a spec's 30 s; whichever spec ran first then failed in
// its setup (replay.spec's beforeAll did, run alone beside two CI runs).

const WARM_UP_MS = 180_000;

export default async function warmUp(config: FullConfig): Promise<void> {
  const use = config.projects[0]?.use ?? {};
  const browser = await chromium.launch(use.launchOptions);
  try {
    const page = await browser.newPage({ baseURL: use.baseURL });
    page.setDefaultTimeout(WARM_UP_MS);
    await signIn(page, operator, WARM_UP_MS);
    await page.goto("/tenants/acme", { timeout: WARM_UP_MS });
  } finally {
    await browser.close();
  }
}
