import { expect, test, type Page, type Response } from "@playwright/test";
import { operator, signIn } from "./support/dashboard";

// Every dashboard page carries a nonce-based CSP (no framing), nosniff and a
// referrer policy; with NEXTAUTH_URL on http there is no HSTS. And the pages still work
// under that policy: signing in, a page of forms and the recharts usage page load and
// hydrate with no CSP violation in the console.

function expectSecurityHeaders(response: Response | null): string {
  if (!response) throw new Error("no response");
  const headers = response.headers();
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["strict-transport-security"]).toBeUndefined();
  return csp;
}

/** Console errors and failed scripts of a page, collected while it is used. */
function watchViolations(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content.Security.Policy|Refused to/i.test(message.text()))
      problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

test("the login page carries the security headers, a fresh nonce each time", async ({ page }) => {
  const problems = watchViolations(page);
  const first = expectSecurityHeaders(await page.goto("/login"));
  const second = expectSecurityHeaders(await page.goto("/login"));
  expect(first).not.toBe(second);
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  expect(problems).toEqual([]);
});

test("dashboard pages carry them and work under the policy (sign-in, forms, charts)", async ({ page }) => {
  const problems = watchViolations(page);
  // The first render after signing in waits on the password hash and the session: on a
  // loaded 2-core CI machine it once took past 5 s.
  await signIn(page, operator, 30_000);

  expectSecurityHeaders(await page.goto("/"));
  expectSecurityHeaders(await page.goto("/tokens"));
  await expect(page.getByRole("button").first()).toBeVisible();
  expectSecurityHeaders(await page.goto("/usage/acme"));
  await expect(page.getByTestId("traffic-chart").locator("svg.recharts-surface").first()).toBeVisible({
    timeout: 15_000,
  });
  expect(problems).toEqual([]);
});

test("a page that does not exist answers 404 under the same policy, without violations", async ({ page }) => {
  const problems = watchViolations(page);
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  expectSecurityHeaders(response);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  expect(problems).toEqual([]);
});

test("the admin API answers with nosniff and no-store", async ({ request }) => {
  const response = await request.get("/api/admin/config", {
    headers: {
      authorization: `Bearer ${process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000"}`,
    },
  });
  expect(response.status()).toBe(200);
  expect(response.headers()["x-content-type-options"]).toBe("nosniff");
  expect(response.headers()["cache-control"]).toBe("no-store");
});
