import "server-only";
import type { IncomingHttpHeaders } from "node:http2";
import { GrpcStatus } from "@/lib/check/grpc/grpc-status";
import type { Enforcement } from "@/lib/check/runtime";
import type { CheckAnswer } from "@/lib/check/check-answer";
import type { CheckInput } from "@/lib/check/types";
import type { RenderedDecision } from "@/lib/check/render/rendered";
import { mayCheck, type Caller } from "@/lib/check/service-auth";
import { admit } from "@/lib/check/fair/fair-admission";
import { checkMetrics } from "@/lib/check/check-metrics";
import { parseRlsRequest } from "@/lib/check/grpc/rls-request";
import { rlsResponse } from "@/lib/check/grpc/rls-response";
import { encodeRlsResponse, type WireRequest } from "@/lib/check/grpc/rls-codec";

// ShouldRateLimit: the caller is a service token (as on /api/check), the domain a tenant it
// may check, each descriptor one check. The descriptors pass the fair gate as one unit and are
// decided in the same turn, so the limiter sends them to Redis as one script call; the
// answer goes once the last is decided. What is not a decision is a gRPC error, which Envoy
// counts as one and answers by its failure_mode_deny: no or unknown token UNAUTHENTICATED,
// bad fields INVALID_ARGUMENT, a tenant the token may not check PERMISSION_DENIED, a domain
// naming no tenant NOT_FOUND, a refusal by the fair gate or the plan's service limit
// RESOURCE_EXHAUSTED.

const BEARER = "bearer ";

/** `authorization: Bearer <token>` or `x-sluice-token: <token>` (gRPC metadata are the call's HTTP/2 headers), as the Authorization value auth reads. */
export function authorizationOf(headers: IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === "string" && authorization.length > 0) return authorization;
  const token = headers["x-sluice-token"];
  if (typeof token === "string" && token.length > 0 && !token.toLowerCase().startsWith(BEARER))
    return `Bearer ${token}`;
  return undefined;
}

/** How a call is answered: a gRPC frame holding the response, or an error status and its message. */
export interface RlsReply {
  ok(frame: Buffer): void;
  fail(code: GrpcStatus, details: string): void;
}

/** One call: its metadata (HTTP/2 headers) and its decoded request. */
export type RlsCall = (headers: IncomingHttpHeaders, request: WireRequest, reply: RlsReply) => void;

function failure(reply: RlsReply, code: GrpcStatus, details: string, started: number): void {
  checkMetrics.request("grpc", code);
  checkMetrics.latency((performance.now() - started) / 1000);
  reply.fail(code, details);
}

export function shouldRateLimit(enforcement: Enforcement): RlsCall {
  return (headers, request, reply) => {
    const started = performance.now();
    const caller: Caller | null = enforcement.auth.authenticate(
      authorizationOf(headers),
      enforcement.holder.current,
    );
    if (caller === null) {
      failure(
        reply,
        GrpcStatus.UNAUTHENTICATED,
        "Send a service token as authorization: Bearer <token> (or x-sluice-token).",
        started,
      );
      return;
    }
    const parsed = parseRlsRequest(request);
    if (!parsed.ok) {
      failure(reply, GrpcStatus.INVALID_ARGUMENT, parsed.message, started);
      return;
    }
    const { tenant, checks } = parsed.value;
    if (!mayCheck(caller, tenant)) {
      failure(
        reply,
        GrpcStatus.PERMISSION_DENIED,
        `This service token may not check for tenant ${tenant}; use a token that lists it.`,
        started,
      );
      return;
    }
    if (enforcement.holder.current.snapshot.tenants[tenant] === undefined) {
      failure(reply, GrpcStatus.NOT_FOUND, `domain: no tenant ${tenant}.`, started);
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
              reply,
              GrpcStatus.PERMISSION_DENIED,
              `This service token may not check for tenant ${tenant}.`,
              started,
            );
            return;
          }
          let frame: Buffer;
          try {
            frame = encodeRlsResponse(rlsResponse(decisions));
          } catch (error) {
            console.error("[sluice] ShouldRateLimit answer failed:", error);
            failure(reply, GrpcStatus.INTERNAL, "The check failed unexpectedly.", started);
            return;
          }
          checkMetrics.request("grpc", GrpcStatus.OK);
          checkMetrics.latency((performance.now() - started) / 1000);
          reply.ok(frame);
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
      failure(reply, GrpcStatus.RESOURCE_EXHAUSTED, body, started);
    }
  };
}
