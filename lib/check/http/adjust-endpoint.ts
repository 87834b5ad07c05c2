import "server-only";
import type { Enforcement } from "@/lib/check/runtime";
import { errorAnswer, jsonAnswer, type HttpAnswer } from "@/lib/check/answer";
import { mayCheck, type Caller } from "@/lib/check/service-auth";
import { parseAdjust } from "@/lib/check/adjust/adjust-schema";
import { decodeTicket, ticketMac } from "@/lib/check/adjust/ticket";
import { adjustScript, buildAdjustCall, readAdjustReply } from "@/lib/check/adjust/adjust-call";
import { ADJUST_WINDOW_MS, MAX_HELD, type AdjustResult } from "@/lib/check/adjust/adjust-terms";

// POST /api/check/adjust (docs/api.md, "Adjusting a check"): charge or refund a decided
// check by its checkId. Order of refusals: credentials (401), size (413), JSON and fields
// (400), an id this installation did not issue (400), a check of a tenant the token may
// not check (404, as for an unknown id: ids of other tenants are not told apart), then
// what Redis decides atomically (409: expired, over-refund, over-charge).

export const MAX_ADJUST_BYTES = 16 * 1024;
/** Redis gets this long; an adjustment is not on a request's critical path, a check is. */
const ADJUST_TIMEOUT_MS = 1_000;

type Respond = (answer: HttpAnswer) => void;

const invalid = (path: string, message: string): HttpAnswer =>
  errorAnswer(400, "invalid_request", `${path || "body"}: ${message}`, path || undefined);

const NOT_ISSUED = invalid("checkId", "is not a check id this installation issued (malformed or altered)");
const NOT_FOUND = errorAnswer(
  404,
  "not_found",
  "checkId: no such check for a tenant this token may check",
  "checkId",
);
const UNAVAILABLE = errorAnswer(503, "store_unavailable", "Redis did not answer; retry the adjustment.");

function answerOf(checkId: string, amount: number, result: AdjustResult): HttpAnswer {
  switch (result.status) {
    case "applied":
    case "replayed":
      return jsonAnswer(200, {
        checkId,
        replayed: result.status === "replayed",
        held: result.held,
        effects: result.effects,
      });
    case "expired":
      return errorAnswer(
        409,
        "check_expired",
        `checkId: a check can be adjusted for ${ADJUST_WINDOW_MS / 1000} s after it was decided`,
        "checkId",
      );
    case "over_refund":
      return errorAnswer(
        409,
        "over_refund",
        `amount: a refund of ${-amount} is more than the ${result.held} units the check holds`,
        "amount",
      );
    case "over_charge":
      return errorAnswer(
        409,
        "over_charge",
        `amount: the check would hold ${result.held + amount} units, over the most one check may (${MAX_HELD})`,
        "amount",
      );
  }
}

export function answerAdjust(enforcement: Enforcement, caller: Caller, text: string, respond: Respond): void {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    respond(errorAnswer(400, "invalid_request", "The body is not valid JSON."));
    return;
  }
  const parsed = parseAdjust(body);
  if (!parsed.ok) {
    respond(invalid(parsed.path, parsed.message));
    return;
  }
  const { checkId, amount, idempotencyKey } = parsed.value;
  const ticket = decodeTicket(checkId);
  if (ticket === null) {
    respond(NOT_ISSUED);
    return;
  }
  const slug = enforcement.holder.current.snapshot.tenantSlugById[ticket.tenantId];
  if (slug === undefined || !mayCheck(caller, slug)) {
    respond(NOT_FOUND);
    return;
  }
  const call = buildAdjustCall(ticket, ticketMac(checkId), { amount, idempotencyKey: idempotencyKey ?? "" });
  let settled = false;
  const settle = (answer: HttpAnswer): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    respond(answer);
  };
  const timer = setTimeout(() => settle(UNAVAILABLE), ADJUST_TIMEOUT_MS);
  enforcement.store.run(adjustScript(), call.keys, call.args, (error, reply) => {
    if (error !== null) {
      settle(UNAVAILABLE);
      return;
    }
    try {
      settle(answerOf(checkId, amount, readAdjustReply(ticket, reply)));
    } catch (failure) {
      console.error("[sluice] unreadable adjust reply:", failure);
      settle(UNAVAILABLE);
    }
  });
}
