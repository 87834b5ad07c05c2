import type { SluiceClient } from "../client";
import type { CheckResult } from "../types";

// Costs known after the response (docs/client.md, "Costs known after the response"): the
// middleware asks for an adjustable check, and once the handler is done refunds it
// (`skipFailedRequests`) or charges the difference (`costAfter`). Adjustments are sent in
// the background: the response never waits for them.

export interface AfterResponseOptions<Req, Res> {
  /** refund the whole check when the response status is >= 400 or the handler throws */
  skipFailedRequests?: boolean;
  /**
   * the request's real cost once the response is known (e.g. the tokens an LLM call used);
   * the difference from the cost checked is charged or refunded. undefined: leave it.
   */
  costAfter?: (res: Res, req: Req) => number | undefined | Promise<number | undefined>;
  /** told of an adjustment that failed (by default failures are ignored) */
  onAdjustError?: (error: { message: string; code?: string }) => void;
}

export type Finished<Res> = { failed: true } | { failed: false; status: number; res: Res };

export function wantsAdjust<Req, Res>(options: AfterResponseOptions<Req, Res>): boolean {
  return options.skipFailedRequests === true || options.costAfter !== undefined;
}

/** The amount to adjust by: -cost for a failed request, the difference to costAfter's answer, or 0. */
async function amountOf<Req, Res>(
  options: AfterResponseOptions<Req, Res>,
  req: Req,
  cost: number,
  finished: Finished<Res>,
): Promise<number> {
  if (finished.failed || finished.status >= 400) return options.skipFailedRequests === true ? -cost : 0;
  if (options.costAfter === undefined) return 0;
  const real = await options.costAfter(finished.res, req);
  if (real === undefined) return 0;
  if (!Number.isSafeInteger(real) || real < 0)
    throw new Error(`costAfter: must return an integer >= 0, got ${real}`);
  return real - cost;
}

/** Settles a served request's cost; resolves when done (never rejects). */
export async function settleCost<Req, Res>(
  client: SluiceClient,
  options: AfterResponseOptions<Req, Res>,
  req: Req,
  result: CheckResult,
  cost: number,
  finished: Finished<Res>,
): Promise<void> {
  if (result.checkId === undefined) return;
  try {
    const amount = await amountOf(options, req, cost, finished);
    if (amount === 0) return;
    const adjusted = await client.adjust(result.checkId, amount);
    if (!adjusted.ok) options.onAdjustError?.(adjusted.error);
  } catch (error) {
    options.onAdjustError?.({ message: error instanceof Error ? error.message : String(error) });
  }
}
