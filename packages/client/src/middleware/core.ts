import type { SluiceClient } from "../client";
import type { CheckRequest, CheckResult } from "../types";
import { jittered, overLimit, queued, type DenyOptions } from "./deny";
import { rateLimitHeaders, type HeaderFlavour } from "../headers";
import { wantsAdjust, type AfterResponseOptions } from "./after-response";

// What every middleware shares: build the check from the request, ask Sluice, and turn
// the decision into what the framework must do (serve, after waitMs for delay limits, or
// answer with a status, headers and a JSON body). Frameworks only adapt these.

export interface GuardOptions<Req, Res = unknown> extends DenyOptions, AfterResponseOptions<Req, Res> {
  client: SluiceClient;
  /** the route pattern ("GET /users/:id"); a function for app-wide use (default: per framework) */
  route?: string | ((req: Req) => string | undefined);
  /** whom `by: subject` limits count (default: the client address, proxy-aware per framework) */
  subject?: (req: Req) => string | undefined;
  /** the header carrying the caller's Sluice API key (default "x-api-key") */
  apiKeyHeader?: string;
  /** a fixed tenant (and key) instead of an API key header, for internal services */
  tenant?: string;
  key?: string;
  /** units the request uses (default 1) */
  cost?: number | ((req: Req) => number);
  /**
   * the RateLimit header flavour set on the response (docs/api.md, "Header flavours");
   * default: the client's `headers` option, itself draft-11 when not given
   */
  headers?: HeaderFlavour;
}

/** Serve (after `waitMs`) with `headers`, drop the connection, or answer status/headers/body. */
export type Verdict =
  | { serve: true; waitMs: number; headers: Record<string, string>; result: CheckResult; cost: number }
  | { serve: false; drop: true; result: CheckResult }
  | {
      serve: false;
      drop: false;
      status: number;
      headers: Record<string, string>;
      body: { error: { code: string; message: string; retryAfterMs?: number } };
      result: CheckResult | null;
    };

export interface RequestFacts {
  method: string;
  /** the framework's route pattern, or the raw path when it has none */
  route: string | undefined;
  apiKey: string | undefined;
  subject: string | undefined;
}

const ROUTE = /^[A-Za-z]{1,16} \/\S*$/;

/** "GET /users/:id" from a method and a path, or undefined when it is not a Sluice route. */
export function routeOf(method: string, path: string): string | undefined {
  const route = `${method.toUpperCase()} ${path === "" ? "/" : path}`;
  return ROUTE.test(route) && route.length <= 2048 ? route : undefined;
}

const DENIED: Record<string, { status: number; message: string }> = {
  rate_limited: { status: 429, message: "Too many requests: retry after the Retry-After header's seconds" },
  cost_exceeds_capacity: { status: 429, message: "This request costs more than the limit allows" },
  penalty: {
    status: 429,
    message: "Blocked for a while after going over a limit: retry after the Retry-After header's seconds",
  },
  unknown_key: { status: 401, message: "Unknown API key" },
  revoked_key: { status: 401, message: "This API key was revoked" },
  expired_key: { status: 401, message: "This API key has expired" },
  unknown_tenant: { status: 403, message: "Unknown tenant" },
  suspended_tenant: { status: 403, message: "This account is suspended" },
  deny_list: { status: 403, message: "Access denied" },
  sluice_unavailable: { status: 503, message: "Rate limiting is unavailable; try again shortly" },
  store_unavailable: { status: 503, message: "Rate limiting is unavailable; try again shortly" },
};

export async function guard<Req, Res>(
  options: GuardOptions<Req, Res>,
  req: Req,
  facts: RequestFacts,
): Promise<Verdict> {
  const base = {
    ...(facts.route !== undefined ? { route: facts.route } : {}),
    ...(facts.subject ? { subject: facts.subject.slice(0, 256) } : {}),
    ...(options.cost !== undefined
      ? { cost: typeof options.cost === "function" ? options.cost(req) : options.cost }
      : {}),
    ...(wantsAdjust(options) ? { adjustable: true } : {}),
  };
  let check: CheckRequest;
  if (options.tenant !== undefined) {
    check = { ...base, tenant: options.tenant, ...(options.key !== undefined ? { key: options.key } : {}) };
  } else if (facts.apiKey) {
    check = { ...base, apiKey: facts.apiKey };
  } else {
    const message = `Missing API key: send it in the ${options.apiKeyHeader ?? "x-api-key"} header`;
    return {
      serve: false,
      drop: false,
      status: 401,
      headers: {},
      body: { error: { code: "missing_api_key", message } },
      result: null,
    };
  }
  const maxWait = options.maxWaitMs ?? 10_000;
  let result = await options.client.check(check);
  const answer = options.onDenied ?? 429;
  if (answer === "queue" && overLimit(result, maxWait))
    result = await queued(options, result, () => options.client.check(check));
  // the result's headers are in the client's flavour; the middleware's own choice wins
  const chosen = options.headers === undefined ? result.headers : rateLimitHeaders(result, options.headers);
  if (result.allowed && result.waitMs <= maxWait) {
    const cost = check.cost ?? 1;
    return { serve: true, waitMs: jittered(result.waitMs, options.jitter), headers: chosen, result, cost };
  }
  const limited = overLimit(result, maxWait);
  if (limited && answer === "drop") return { serve: false, drop: true, result };
  const reason = result.allowed ? "rate_limited" : result.reason;
  const denied = DENIED[reason] ?? { status: 429, message: "Request refused by the rate limiter" };
  const status = limited && answer === 503 ? 503 : denied.status;
  const headers = { ...chosen };
  const waited = result.allowed ? result.waitMs : result.retryAfterMs;
  const retryAfterMs = waited === null ? undefined : jittered(waited, options.jitter);
  if (retryAfterMs === undefined) delete headers["Retry-After"];
  else headers["Retry-After"] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  if (denied.status === 503) headers["Retry-After"] = "1";
  const error = {
    code: reason,
    message: denied.message,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
  return { serve: false, drop: false, status, headers, body: { error }, result };
}

/** The route option resolved for one request, else the framework's pattern. */
export function chosenRoute<Req, Res>(
  options: GuardOptions<Req, Res>,
  req: Req,
  fallback: () => string | undefined,
): string | undefined {
  const given = typeof options.route === "function" ? options.route(req) : options.route;
  return given ?? fallback();
}

/** A Node response's end events, structurally (Express's res, Fastify's reply.raw). */
export interface EndingLike {
  once(event: "finish" | "close", listener: () => void): unknown;
}

/**
 * Releases the lease of an admitted request (concurrency limits) once, however often it is
 * called: when the response ends, when the handler throws, when the client goes away. A
 * decision without a lease releases nothing.
 */
export function leaseRelease(client: SluiceClient, result: CheckResult): () => void {
  const lease = result.lease;
  let done = lease === undefined;
  return () => {
    if (done) return;
    done = true;
    void client.release(lease as string);
  };
}

/** Releases the verdict's lease when the Node response `res` finishes or closes early. */
export function releaseOnEnd(client: SluiceClient, result: CheckResult, res: EndingLike | undefined): void {
  if (result.lease === undefined || res === undefined) return;
  const release = leaseRelease(client, result);
  res.once("finish", release);
  // "close" also comes when the client disconnects before the response is finished
  res.once("close", release);
}

export const sleep = (ms: number): Promise<void> =>
  ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();

/** The address the nearest trusted proxy saw, from X-Forwarded-For (hops from the right). */
export function forwardedFor(header: string | null | undefined, hops: number): string | undefined {
  if (!header || hops < 1) return undefined;
  const parts = header
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  return parts[parts.length - hops] ?? parts[0];
}
