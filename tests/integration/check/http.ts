// HTTP helpers for the check tests: every request goes to a running app process.

export const APP_URL = process.env.APP_URL ?? "http://localhost:3100";
export const APP_URL_2 = process.env.APP_URL_2 ?? "http://localhost:3101";
export const BOOTSTRAP = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000";

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
  ms: number;
}

export interface Decision {
  allowed: boolean;
  reason: string;
  tenant: string | null;
  key: string | null;
  route: string | null;
  limit: number | null;
  remaining: number | null;
  resetMs: number | null;
  retryAfterMs: number | null;
  waitMs: number;
  limits: Array<{
    name: string;
    level: string;
    by: string;
    algorithm: string;
    limit: number;
    windowMs: number;
    remaining: number | null;
    resetMs: number | null;
    allowed: boolean;
    mode: string;
  }>;
  degraded: boolean;
  configVersion: number;
}

export interface ErrorAnswer {
  error: { code: string; message: string; path?: string };
}

export async function post<T = Record<string, unknown>>(
  path: string,
  body: unknown,
  options: { token?: string | null; url?: string; raw?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const token = options.token === undefined ? BOOTSTRAP : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const started = performance.now();
  const response = await fetch(`${options.url ?? APP_URL}${path}`, {
    method: "POST",
    headers,
    body: options.raw ?? JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  return { status: response.status, body: JSON.parse(text) as T, headers: response.headers, ms };
}

export function check(
  body: unknown,
  options: { token?: string | null; url?: string } = {},
): Promise<Answer<Decision>> {
  return post<Decision>("/api/check", body, options);
}

/** The decision, failing the test unless the answer is a 200. */
export async function decide(
  body: unknown,
  options: { token?: string | null; url?: string } = {},
): Promise<Decision> {
  const answer = await check(body, options);
  if (answer.status !== 200)
    throw new Error(`expected 200, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Waits until the app enforces at least this config version (checks report it). */
export async function waitForVersion(version: number, url = APP_URL, timeoutMs = 5_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let seen = -1;
  while (Date.now() < deadline) {
    const answer = await check({ tenant: "no-such-tenant-x" }, { url }).catch(() => null);
    seen = answer?.status === 200 ? answer.body.configVersion : seen;
    if (seen >= version) return seen;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${url} still enforces version ${seen} after ${timeoutMs} ms, expected ${version}`);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
