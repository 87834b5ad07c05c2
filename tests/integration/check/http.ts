// HTTP helpers for the check tests: every request goes to a running app process.
import type { DecisionBody } from "@/lib/check/types";
import { sideRead } from "./side-read";

export const APP_URL = process.env.APP_URL ?? "http://localhost:3100";
export const APP_URL_2 = process.env.APP_URL_2 ?? "http://localhost:3101";
export const BOOTSTRAP = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000";

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
  ms: number;
}

/** The 200 body of POST /api/check, as the server declares it (not a copy that could drift). */
export type Decision = DecisionBody;

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

export interface ServerLatency {
  count: number;
  within100ms: number;
  within250ms: number;
  /** limiter calls that timed out: Redis may still have run them (counted, answered degraded) */
  timedOut: number;
  /** single checks answered past the timeout + 50 ms while the server's event loop was stalled */
  lateStarved: number;
  /** ...and past it for any other reason (a wait on the check path) */
  lateWaited: number;
  /** connections the front passed to the app process (front-metrics.ts) */
  handOffs: number;
  /** checks that came back from the app process: sent on a connection the app holds */
  forwardedChecks: number;
}

/**
 * The server's own count of check answers, and of those within 100 and 250 ms (its
 * histogram); `readText` fetches the metrics text (by default on fetch's pooled connections).
 */
export async function serverLatency(
  url: string,
  // on a connection of its own (side-read.ts), so the checks keep the front's connections
  readText: (url: string) => Promise<string> = async (at) => (await sideRead(at)).text,
): Promise<ServerLatency> {
  const text = await readText(`${url}/api/metrics`);
  const read = (pattern: RegExp): number => Number(pattern.exec(text)?.[1] ?? NaN);
  return {
    count: read(/^sluice_check_duration_seconds_count (\d+)$/m),
    within100ms: read(/^sluice_check_duration_seconds_bucket\{le="0\.1"\} (\d+)$/m),
    within250ms: read(/^sluice_check_duration_seconds_bucket\{le="0\.25"\} (\d+)$/m),
    timedOut: read(/^sluice_store_failures_total\{kind="timeout"\} (\d+)$/m) || 0,
    lateStarved: read(/^sluice_check_late_answers_total\{cause="starved"\} (\d+)$/m),
    lateWaited: read(/^sluice_check_late_answers_total\{cause="waited"\} (\d+)$/m),
    handOffs: read(/^sluice_front_handoffs_total (\d+)$/m),
    forwardedChecks: read(/^sluice_forwarded_requests_total\{kind="check"\} (\d+)$/m),
  };
}
