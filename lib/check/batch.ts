import "server-only";
import { parseCheck } from "@/lib/check/body-schema";
import type { CheckService } from "@/lib/check/check-service";
import type { Caller } from "@/lib/check/service-auth";
import type { ErrorBody } from "@/lib/check/types";
import { asciiJson } from "@/lib/shared/ascii-json";
import type { FairWork } from "@/lib/check/fair/fair-gate";

// POST /api/check/batch: each check validated and decided on its own, a bad one answered
// with its own error in its place. The batch passes the fair gate in chunks of the gate's
// quantum (lib/enforce/fair/fair-gate.ts): a chunk's checks are submitted in the same tick,
// so the micro-batcher sends those of one tenant as one or two script calls, and another
// caller's check waits for at most a chunk of it, never for the whole batch.

/**
 * The batch's deadline: the check timeout plus 2 ms per check. Redis runs the scripts one
 * after another and this process encodes and reads each, so a full batch legitimately takes
 * tens of milliseconds; a dead Redis still answers at once (closed connection or open
 * circuit), only a stalled one makes a batch wait this long.
 */
export function batchTimeoutMs(checkTimeoutMs: number, size: number): number {
  return checkTimeoutMs + 2 * size;
}

const errorJson = (error: ErrorBody["error"]): string => asciiJson({ error });

const OPEN = '{"results":[';
const CLOSE = "]}";

/**
 * `{"results":[...]}` from the results' JSON (ASCII, see lib/shared/ascii-json.ts), written
 * straight into one buffer: no joined string of the whole answer, and no UTF-8 encoding of
 * it on its way to the socket.
 */
function assemble(results: readonly string[]): Buffer {
  let size = OPEN.length + CLOSE.length + results.length - 1;
  for (const result of results) size += result.length;
  const body = Buffer.allocUnsafe(size);
  let at = body.write(OPEN, 0, "latin1");
  for (let i = 0; i < results.length; i++) {
    if (i > 0) body[at++] = 44; // ","
    at += body.write(results[i] as string, at, "latin1");
  }
  body.write(CLOSE, at, "latin1");
  return body;
}

/**
 * The batch as units of work for the fair gate, `chunk` checks each, which decide every
 * item once started; `done` gets the answer body, `{"results":[...]}`, once the last one is
 * answered: each result the JSON of its decision or of its error, in order.
 */
export function batchWorks(
  service: CheckService,
  items: readonly unknown[],
  caller: Caller,
  checkTimeoutMs: number,
  chunk: number,
  done: (body: Buffer) => void,
): FairWork[] {
  const timeoutMs = batchTimeoutMs(checkTimeoutMs, items.length);
  const results = new Array<string>(items.length);
  let pending = items.length;
  const put = (i: number, result: string): void => {
    results[i] = result;
    if (--pending === 0) done(assemble(results));
  };
  const decideOne = (i: number, answered: () => void): void => {
    const parsed = parseCheck(items[i], `checks[${i}]`);
    if (!parsed.ok) {
      put(i, errorJson({ code: "invalid_request", message: parsed.error.message, path: parsed.error.path }));
      answered();
      return;
    }
    service.decide(
      parsed.value,
      caller,
      (answer) => {
        if (answer.status === 200) put(i, answer.decision.json);
        else
          put(
            i,
            errorJson({ ...answer.body.error, path: `checks[${i}].${answer.body.error.path ?? "tenant"}` }),
          );
        answered();
      },
      timeoutMs,
    );
  };
  const works: FairWork[] = [];
  for (let from = 0; from < items.length; from += chunk) {
    const to = Math.min(items.length, from + chunk);
    works.push({
      cost: to - from,
      run(finished) {
        let left = to - from;
        const answered = (): void => {
          if (--left === 0) finished();
        };
        for (let i = from; i < to; i++) decideOne(i, answered);
      },
    });
  }
  return works;
}
