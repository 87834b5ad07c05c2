import {
  chosenRoute,
  forwardedFor,
  guard,
  leaseRelease,
  routeOf,
  sleep,
  type GuardOptions,
  type Verdict,
} from "./core";
import { checkDenyOptions } from "./deny";
import { checkHeaderFlavour } from "../headers";
import { settleCost, wantsAdjust } from "./after-response";

// Fetch-style handlers, `(request: Request) => Response` (Hono, Bun, Deno, Cloudflare,
// Next.js route handlers): withSluiceFetch(handler, { client, route: "GET /users/:id" }).
// A Request carries no socket address, so the default subject is the address the nearest
// proxy appended to X-Forwarded-For (`proxyHops` from the right, default 1), else
// X-Real-IP; with no proxy in front those headers are the caller's to forge, so pass
// `subject` (e.g. Hono's getConnInfo) instead.

export interface FetchGuardOptions extends GuardOptions<Request, Response> {
  /** proxies in front of the app whose X-Forwarded-For entries are believed (default 1) */
  proxyHops?: number;
}

export type FetchHandler<Ctx extends unknown[]> = (
  request: Request,
  ...rest: Ctx
) => Response | Promise<Response>;

/** The default subject of a fetch-style request (see above). */
export function requestAddress(request: Request, proxyHops = 1): string | undefined {
  return (
    forwardedFor(request.headers.get("x-forwarded-for"), proxyHops) ??
    request.headers.get("x-real-ip") ??
    undefined
  );
}

/** The verdict for a Request: the part shared by withSluiceFetch and sluiceProxy. */
export function verdictFor(options: FetchGuardOptions, request: Request): Promise<Verdict> {
  return guard(options, request, {
    method: request.method,
    route: chosenRoute(options, request, () => routeOf(request.method, new URL(request.url).pathname)),
    apiKey: request.headers.get(options.apiKeyHeader ?? "x-api-key") ?? undefined,
    subject: options.subject ? options.subject(request) : requestAddress(request, options.proxyHops),
  });
}

/**
 * The answer of a refused request: JSON error, status, RateLimit headers and Retry-After.
 * A dropped one: a Request has no socket to close, so the response's body fails before
 * its first byte, which servers on Node (Next.js among them) end by closing the connection.
 */
export function refusal(verdict: Verdict & { serve: false }): Response {
  if (verdict.drop) {
    const failing = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.error(new Error("sluice: request dropped (onDenied: drop)")),
    });
    return new Response(failing, { status: 429 });
  }
  return Response.json(verdict.body, { status: verdict.status, headers: verdict.headers });
}

/** Copies the RateLimit headers onto the handler's response (a new one if it is immutable). */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  const names = Object.entries(headers);
  if (names.length === 0) return response;
  try {
    for (const [name, value] of names) response.headers.set(name, value);
    return response;
  } catch {
    // Response.redirect() and fetched responses have immutable headers
    const copy = new Response(response.body, response);
    for (const [name, value] of names) copy.headers.set(name, value);
    return copy;
  }
}

export function withSluiceFetch<Ctx extends unknown[]>(
  handler: FetchHandler<Ctx>,
  options: FetchGuardOptions,
): FetchHandler<Ctx> {
  checkDenyOptions(options);
  checkHeaderFlavour(options.headers);
  return async (request, ...rest) => {
    const verdict = await verdictFor(options, request);
    if (!verdict.serve) return refusal(verdict);
    // a lease (concurrency limits) ends when the handler's answer is made or it throws, or
    // when the client goes away first (the request's signal)
    const release = leaseRelease(options.client, verdict.result);
    request.signal?.addEventListener("abort", release, { once: true });
    try {
      await sleep(verdict.waitMs);
      if (!wantsAdjust(options) || verdict.result.checkId === undefined)
        return withHeaders(await handler(request, ...rest), verdict.headers);
      let response: Response;
      try {
        response = await handler(request, ...rest);
      } catch (error) {
        void settleCost(options.client, options, request, verdict.result, verdict.cost, { failed: true });
        throw error;
      }
      const finished = { failed: false as const, status: response.status, res: response };
      void settleCost(options.client, options, request, verdict.result, verdict.cost, finished);
      return withHeaders(response, verdict.headers);
    } finally {
      release();
    }
  };
}
