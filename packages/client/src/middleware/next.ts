import { sleep } from "./core";
import { checkDenyOptions } from "./deny";
import { checkHeaderFlavour } from "../headers";
import { wantsAdjust } from "./after-response";
import { refusal, verdictFor, withSluiceFetch, type FetchGuardOptions, type FetchHandler } from "./fetch";

// Next.js (App Router). Route handlers: the App Router does not expose the matched
// pattern at runtime, so name it: `export const GET = withSluice(handler, { client,
// route: "GET /users/:id" })`. The request proxy (proxy.ts, formerly middleware.ts):
// `export const proxy = sluiceProxy({ client, route: (req) => ... })` answers refusals
// itself and lets the rest through with the RateLimit headers on the response.

export type { FetchGuardOptions as NextGuardOptions } from "./fetch";

/** Wraps an App Router route handler (its second argument, `{ params }`, passes through). */
export function withSluice<Ctx extends unknown[]>(
  handler: FetchHandler<Ctx>,
  options: FetchGuardOptions,
): FetchHandler<Ctx> {
  return withSluiceFetch(handler, options);
}

/**
 * A Next.js proxy function. Refused requests get the refusal; admitted ones continue
 * (`x-middleware-next`, what NextResponse.next() sends) with the RateLimit headers set on
 * the final response. `then` runs your own proxy logic after an admission instead.
 */
export function sluiceProxy(
  options: FetchGuardOptions & { then?: (request: Request) => Response | Promise<Response> },
): (request: Request) => Promise<Response> {
  checkDenyOptions(options);
  checkHeaderFlavour(options.headers);
  // the proxy never sees the route's response
  if (wantsAdjust(options))
    throw new Error(
      "skipFailedRequests, costAfter: not supported by sluiceProxy (use withSluice on the route)",
    );
  return async (request) => {
    const verdict = await verdictFor(options, request);
    if (!verdict.serve) return refusal(verdict);
    await sleep(verdict.waitMs);
    const response = options.then
      ? await options.then(request)
      : new Response(null, { headers: { "x-middleware-next": "1" } });
    for (const [name, value] of Object.entries(verdict.headers)) response.headers.set(name, value);
    return response;
  };
}
