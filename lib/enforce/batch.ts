import "server-only";
import { parseCheck } from "@/lib/enforce/body-schema";
import type { CheckService } from "@/lib/enforce/check-service";
import type { Caller } from "@/lib/enforce/service-auth";
import type { DecisionBody, ErrorBody } from "@/lib/enforce/types";

// POST /api/check/batch: each check validated and decided on its own, a bad one answered
// with its own error in its place. All limiter calls are issued in the same tick, so the
// hot client's auto-pipelining writes them to Redis together: one or a few round trips for
// the whole batch instead of one per check.

/**
 * The batch's deadline: the check timeout plus 2 ms per check. Redis runs the scripts one
 * after another and this process encodes and reads each, so a full batch legitimately takes
 * tens of milliseconds; a dead Redis still answers at once (closed connection or open
 * circuit), only a stalled one makes a batch wait this long.
 */
export function batchTimeoutMs(checkTimeoutMs: number, size: number): number {
  return checkTimeoutMs + 2 * size;
}

export function decideBatch(
  service: CheckService,
  items: readonly unknown[],
  caller: Caller,
  checkTimeoutMs: number,
): Promise<Array<DecisionBody | ErrorBody>> {
  const timeoutMs = batchTimeoutMs(checkTimeoutMs, items.length);
  return Promise.all(
    items.map((item, i): Promise<DecisionBody | ErrorBody> | ErrorBody => {
      const parsed = parseCheck(item, `checks[${i}]`);
      if (!parsed.ok) {
        return { error: { code: "invalid_request", message: parsed.error.message, path: parsed.error.path } };
      }
      return Promise.resolve(service.decide(parsed.value, caller, timeoutMs)).then((answer) => {
        if (answer.status === 200) return answer.body;
        const { error } = answer.body;
        return { error: { ...error, path: `checks[${i}].${error.path ?? "tenant"}` } };
      });
    }),
  );
}
