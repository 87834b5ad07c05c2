import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";

// Screenshots for a person to look at (not diffed), in tests/e2e/screenshots/.

export const SHOTS = "tests/e2e/screenshots";

/** The page in light, dark and on a 390 px phone: `<name>-light.png`, `-dark`, `-phone`; its size restored. */
export async function threeShots(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.emulateMedia({ colorScheme: "light" });
  await page.screenshot({ path: `${SHOTS}/${name}-light.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${SHOTS}/${name}-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/${name}-phone.png`, fullPage: true });
  await page.setViewportSize(size);
}
