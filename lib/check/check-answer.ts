import "server-only";
import type { KeyRecord } from "@/lib/check/config-index";
import { degradedAnswer } from "@/lib/check/check-shapes";
import type { CheckShape } from "@/lib/check/shape-types";
import { decisionSink, type DecisionContext } from "@/lib/check/decision-sink";
import { earlyBody } from "@/lib/check/decision-body";
import type { StoreResult } from "@/lib/check/limiter-store";
import { renderBody, type RenderedDecision } from "@/lib/check/render/rendered";
import { flavourOf } from "@/lib/check/headers";
import type { Early } from "@/lib/check/resolve";
import type { CheckInput, ErrorBody } from "@/lib/check/types";
import { checkMetrics } from "@/lib/check/check-metrics";
import { UNMATCHED_ROUTE_MARK } from "@/lib/shared/usage-route";

// What a check answers (check-service.ts), and the one place every decision is reported to
// the sink on its way out: a refusal by the caller's rights is not a decision.

export type CheckAnswer = { status: 200; decision: RenderedDecision } | { status: 403; body: ErrorBody };

function forbiddenAnswer(tenantSlug: string, input: CheckInput): CheckAnswer {
  return {
    status: 403,
    body: {
      error: {
        code: "forbidden",
        message: `This service token may not check for tenant ${tenantSlug}; use a token that lists it.`,
        path: input.apiKey !== null ? "apiKey" : "tenant",
      },
    },
  };
}

/** The route a decision is counted under: a route sent that matched nothing is told apart from none. */
export function usageRoute(route: string | null, input: CheckInput): string | null {
  return route ?? (input.route === null ? null : UNMATCHED_ROUTE_MARK);
}

/** A decision's answer, reported to the decision sink (with its lease's expiry when it took one). */
export function recordedAnswer(
  rendered: RenderedDecision,
  tenantId: string | null,
  keyId: string | null,
  route: string | null,
  input: CheckInput,
  leaseDueMs?: number,
): CheckAnswer {
  const decision: DecisionContext = {
    tenantId,
    keyId,
    route: usageRoute(route, input),
    subject: input.subject,
    outcome: rendered.outcome,
    reason: rendered.reason,
    cause: rendered.cause,
    cost: input.cost,
    dryRun: input.dryRun,
    body: rendered.json,
  };
  // only checks that took a lease carry the field
  if (leaseDueMs !== undefined) decision.leaseDueMs = leaseDueMs;
  decisionSink().record(decision);
  return { status: 200, decision: rendered };
}

/** A check that needs no counter: an early answer (unknown key...) or a refusal. */
export function refusedAnswer(
  target: Early | { kind: "forbidden"; tenantSlug: string },
  input: CheckInput,
  version: number,
): CheckAnswer {
  if (target.kind === "forbidden") return forbiddenAnswer(target.tenantSlug, input);
  if (target.cached) checkMetrics.cacheHit("negative");
  const rendered = renderBody(earlyBody(target, version), flavourOf(target.tenant));
  return recordedAnswer(rendered, target.tenant?.id ?? null, target.keyId, target.route, input);
}

/** The limiter's verdict rendered, degraded when it failed or its reply does not fit. */
export function renderedReply(
  result: StoreResult,
  shape: CheckShape,
  key: KeyRecord | null,
  keyJson: string,
  version: number,
): RenderedDecision {
  if (!result.ok) return degradedAnswer(shape, key, version, result.cause);
  try {
    return shape.template.render(result.reply, result.at, keyJson, 0, null, version);
  } catch (error) {
    // a reply that does not fit: Redis' verdict is unknown, as if it had failed
    console.error("[sluice] unreadable limiter reply:", error);
    return degradedAnswer(shape, key, version, "limiter_error");
  }
}
