import "server-only";
import { z } from "zod";
import { MAX_RELEASES, releaseSchema, token } from "@/lib/check/lease/release-schema";
import { errorAnswer, jsonAnswer, type HttpAnswer } from "@/lib/check/answer";
import type { ReleaseResult } from "@/lib/check/lease/lease-release";
import type { Enforcement } from "@/lib/check/runtime";
import type { Caller } from "@/lib/check/service-auth";

// POST /api/check/release (docs/api.md): ends leases that checks answered. One lease,
// `{"lease": "..."}`, answers `{"released": true|false}`; several, `{"leases": [...]}` (up
// to MAX_RELEASES), answer `{"results": [...]}` in order, each `{"released": ...}` or
// `{"error": ...}`. released: false is not an error: the lease was released before (a
// release is idempotent) or has expired.

export const MAX_RELEASE_BYTES = 1024 * 1024;

type Item = { released: boolean } | { error: { code: string; message: string } };

const itemOf = (result: ReleaseResult): Item =>
  result.ok ? { released: result.released } : { error: { code: result.code, message: result.message } };

function invalidBody(body: unknown): HttpAnswer {
  const fields = body !== null && typeof body === "object" ? Object.keys(body) : [];
  const path = fields.includes("leases") ? "leases" : "lease";
  const parsed = z.object({ [path]: path === "leases" ? z.array(token).min(1).max(MAX_RELEASES) : token });
  const issue = parsed.safeParse(body).error?.issues[0];
  const where = issue ? [path, ...issue.path.slice(1)].join(".") : "body";
  const message = issue
    ? issue.message
    : 'must be a JSON object with one field, "lease" (a string) or "leases" (an array of strings)';
  return errorAnswer(400, "invalid_request", `${where}: ${message}`, issue ? where : "");
}

/** Answers a release body (its size already checked) for an authenticated caller. */
export function answerRelease(
  enforcement: Enforcement,
  caller: Caller,
  text: string,
  respond: (answer: HttpAnswer) => void,
): void {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    respond(errorAnswer(400, "invalid_request", "The body is not valid JSON."));
    return;
  }
  const parsed = releaseSchema.safeParse(body);
  if (!parsed.success) {
    respond(invalidBody(body));
    return;
  }
  const config = enforcement.holder.current;
  const { leases } = enforcement;
  if ("lease" in parsed.data) {
    leases.release(parsed.data.lease, caller, config, (result) =>
      respond(
        result.ok
          ? jsonAnswer(200, { released: result.released })
          : errorAnswer(
              result.status,
              result.code,
              result.message,
              result.status === 400 ? "lease" : undefined,
            ),
      ),
    );
    return;
  }
  const list = parsed.data.leases;
  const results: Item[] = new Array<Item>(list.length);
  let left = list.length;
  list.forEach((lease, i) =>
    leases.release(lease, caller, config, (result) => {
      results[i] = itemOf(result);
      if (--left === 0) respond(jsonAnswer(200, { results }));
    }),
  );
}
