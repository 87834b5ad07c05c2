import "server-only";
import type { RenderedDecision } from "@/lib/check/render/rendered";
import type { PreparedCheck } from "@/lib/check/limiter/evaluate-many";
import { encodeTicket, ticketOf } from "@/lib/check/adjust/ticket";

// The checkId of an adjustable check's answer (docs/api.md, "Adjusting a check"): appended
// to the rendered body, so a check that does not ask for one pays nothing. Only an admitted
// check that Redis counted gets one; a check none of whose limits took units gets none.

/** `rendered` with "checkId" added, from the script's reply for the check (starting at reply[at]). */
export function withCheckId(
  rendered: RenderedDecision,
  tenantId: string,
  prepared: PreparedCheck,
  reply: readonly number[],
  at: number,
): RenderedDecision {
  const nowMs = reply[at + 1] as number;
  // per limit six integers from reply[at + 2]: status, consumed, ...
  const consumed = (i: number): boolean => reply[at + 3 + 6 * i] === 1;
  const ticket = ticketOf(
    tenantId,
    nowMs,
    prepared.check.request.cost,
    prepared.keys,
    prepared.rules,
    consumed,
  );
  if (ticket === null) return rendered;
  // the body is one JSON object; the id is base64url and "." (nothing to escape)
  return { ...rendered, json: `${rendered.json.slice(0, -1)},"checkId":"${encodeTicket(ticket)}"}` };
}
