import { createHash } from "node:crypto";
import { expect, type Browser, type Page } from "@playwright/test";
import pg from "pg";
import { demoPassword } from "../../../prisma/seed/demo-secrets";
import { adminHeaders } from "./admin-api";

// Shared by the dashboard specs: sign-in (once per role per file, to stay far below the
// login limits), the bootstrap-token check call, and read-only database probes.

export const operator = {
  email: process.env.SLUICE_ADMIN_EMAIL ?? "admin@sluice.test",
  password: process.env.SLUICE_ADMIN_PASSWORD ?? "test-admin-password",
};
export const viewer = {
  email: "viewer@acme.example",
  password: demoPassword(process.env.NEXTAUTH_SECRET ?? "test-secret-test-secret-test-secret-0", "viewer"),
};

export const uniqueSlug = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/**
 * A new page signed in as `who`. `timeoutMs`: how long to wait for it (the first sign-in
 * after the apps start can be slow on a loaded machine); the expect default otherwise.
 */
export async function signedIn(
  browser: Browser,
  who: { email: string; password: string },
  timeoutMs?: number,
): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, who, timeoutMs);
  return page;
}

/** Signs `page` in as `who` through the login form (a page already being watched, say). */
export async function signIn(
  page: Page,
  who: { email: string; password: string },
  timeoutMs?: number,
): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toContainText(who.email, { timeout: timeoutMs });
}

export interface Decision {
  allowed: boolean;
  reason: string;
  limit: number | null;
  limits: { name: string; limit: number; remaining: number }[];
}

export async function check(page: Page, body: Record<string, unknown>): Promise<Decision> {
  const response = await page.request.post("/api/check", {
    headers: adminHeaders,
    data: body,
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as Decision;
}

export async function query<T extends Record<string, unknown>>(
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `.data/screenshots/${name}.png`, fullPage: true });
}
