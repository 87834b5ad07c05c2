import "server-only";
import { status, type Metadata, type handleUnaryCall, type sendUnaryData } from "@grpc/grpc-js";
import type { Enforcement } from "@/lib/check/runtime";
import type { CheckAnswer } from "@/lib/check/check-answer";
import type { CheckInput } from "@/lib/check/types";
import type { RenderedDecision } from "@/lib/check/render/rendered";
import { mayCheck, type Caller } from "@/lib/check/service-auth";
import { admit } from "@/lib/check/fair/fair-admission";
import { checkMetrics } from "@/lib/check/check-metrics";
import { parseRlsRequest } from "@/lib/check/grpc/rls-request";
import { rlsResponse, type RlsResponse } from "@/lib/check/grpc/rls-response";

// ShouldRateLimit: the caller is a service token (as on /api/check), the domain a tenant it
// may check, each descriptor one check. The descriptors pass the fair gate as one unit and are
// decided in the same turn, so the limiter sends them to Redis as one script call; the
// answer goes once the last is decided. What is not a decision is a gRPC error, which Envoy
// counts as one and answers by its failure_mode_deny: no or unknown token UNAUTHENTICATED,
// bad fields INVALID_ARGUMENT, a tenant the token may not check PERMISSION_DENIED, a domain
// naming no tenant NOT_FOUND, a refusal by the fair gate or the plan's service limit
// RESOURCE_EXHAUSTED.

const BEARER = "bearer ";

/** `authorization: Bearer <token>` or `x-sluice-token: <token>`, as the Authorization value auth reads. */
export function authorizationOf(metadata: Metadata): string | undefined {
  const authorization = metadata.get("authorization")[0];
  if (typeof authorization === "string" && authorization.length > 0) return authorization;
  const token = metadata.get("x-sluice-token")[0];
  if (typeof token === "string" && token.length > 0 && !token.toLowerCase().startsWith(BEARER))
    return `Bearer ${token}`;
  return undefined;
}

function failure(callback: sendUnaryData<RlsResponse>, code: status, details: string, started: number): void {
  checkMetrics.request("grpc", code);
  checkMetrics.latency((performance.now() - started) / 1000);
  callback({ code, details });
}

export function shouldRateLimit(enforcement: Enforcement): handleUnaryCall<unknown, RlsResponse> {
  return (call, callback) => {
    const started = performance.now();
    const caller: Caller | null = enforcement.auth.authenticate(
      authorizationOf(call.metadata),
      enforcement.holder.current,
    );
    if (caller === null) {
      failure(
        callback,
        status.UNAUTHENTICATED,
        "Send a service token as authorization: Bearer <token> (or x-sluice-token).",
        started,
      );
      return;
    }
    const parsed = parseRlsRequest(call.request);
    if (!parsed.ok) {
      failure(callback, status.INVALID_ARGUMENT, parsed.message, started);
      return;
    }
    const { tenant, checks } = parsed.value;
    if (!mayCheck(caller, tenant)) {
      failure(
        callback,
        status.PERMISSION_DENIED,
        `This service token may not check for tenant ${tenant}; use a token that lists it.`,
        started,
      );
      return;
    }
    if (enforcement.holder.current.snapshot.tenants[tenant] === undefined) {
      failure(callback, status.NOT_FOUND, `domain: no tenant ${tenant}.`, started);
      return;
    }
    const decisions = new Array<RenderedDecision>(checks.length);
    let forbidden = false;
    const work = {
      cost: checks.length,
      run(done: () => void): void {
        let pending = checks.length;
        const answered = (i: number, answer: CheckAnswer): void => {
          if (answer.status === 200) decisions[i] = answer.decision;
          else forbidden = true;
          if (--pending > 0) return;
          done();
          if (forbidden) {
            failure(
              callback,
              status.PERMISSION_DENIED,
              `This service token may not check for tenant ${tenant}.`,
              started,
            );
            return;
          }
          let response: RlsResponse;
          try {
            response = rlsResponse(decisions);
          } catch (error) {
            console.error("[sluice] ShouldRateLimit answer failed:", error);
            failure(callback, status.INTERNAL, "The check failed unexpectedly.", started);
            return;
          }
          checkMetrics.request("grpc", status.OK);
          checkMetrics.latency((performance.now() - started) / 1000);
          callback(null, response);
        };
        for (let i = 0; i < checks.length; i++) {
          const index = i;
          enforcement.service.decide(checks[i] as CheckInput, caller, (answer) => answered(index, answer));
        }
      },
    };
    const refused = admit(enforcement, caller, checks.length, [work]);
    if (refused !== null) {
      const body = typeof refused.body === "string" ? refused.body : refused.body.toString("latin1");
      failure(callback, status.RESOURCE_EXHAUSTED, body, started);
    }
  };
}
