import "server-only";
import { z } from "zod";
import { errorAnswer, jsonAnswer, type HttpAnswer } from "@/lib/check/answer";
import { loopStalls } from "@/lib/check/loop-stalls";
import { STALL_SPANS } from "@/lib/shared/stall-spans";

// GET /api/metrics/stalls?since=<epoch ms>: the spans in which this front's event loop could
// not run (loop-stalls.ts), in wall-clock ms, so a client can tell the time its request
// waited for a busy or descheduled server from a wait on the check path. Read from the
// ring the stall watch keeps anyway: nothing is added per check. Unauthenticated, as
// /api/metrics: spans of a process's own scheduling, nothing about tenants.

/** at most this many spans an answer: the ring's size */
export const MAX_STALL_SPANS = STALL_SPANS;

const QuerySchema = z.object({
  since: z.coerce.number().finite().nonnegative().optional(),
});

export const StallSpansSchema = z.object({
  /** this front's clock when it answered, epoch ms: spans up to it are complete */
  now: z.number(),
  /** [start, end] epoch ms, oldest first */
  spans: z.array(z.tuple([z.number(), z.number()])),
});

export type StallSpans = z.infer<typeof StallSpansSchema>;

const tenth = (ms: number): number => Math.round(ms * 10) / 10;

/** The answer to `url` (path and query); 400 when `since` is not a number of ms. */
export function stallSpansAnswer(url: string): HttpAnswer {
  const q = url.indexOf("?");
  const query = QuerySchema.safeParse(Object.fromEntries(new URLSearchParams(q < 0 ? "" : url.slice(q + 1))));
  if (!query.success)
    return errorAnswer(400, "invalid_request", "since: epoch milliseconds expected.", "since");
  const origin = performance.timeOrigin;
  const since = query.data.since === undefined ? -Infinity : query.data.since - origin;
  const spans = loopStalls
    .spansSince(since)
    .slice(-MAX_STALL_SPANS)
    .map(([start, end]): [number, number] => [tenth(origin + start), tenth(origin + end)]);
  const body: StallSpans = { now: tenth(origin + performance.now()), spans };
  return jsonAnswer(200, body);
}
