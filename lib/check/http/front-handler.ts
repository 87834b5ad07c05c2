import "server-only";
import type { Enforcement } from "@/lib/check/runtime";
import {
  answerBody,
  authenticate,
  bodyLimit,
  metered,
  tooLarge,
  UNAUTHORIZED,
} from "@/lib/check/http/check-endpoint";
import { answerFollowUp, followUpLimit, followUpTooLarge } from "@/lib/check/http/follow-up-endpoints";
import type { FrontHandler } from "@/lib/check/http/front/contract";
import { checkMetrics } from "@/lib/check/check-metrics";

// The check endpoints as the lean front serves them (lib/check/http/front): the same
// answers as on node:http (lean-router.ts), from the same cores (check-endpoint.ts, and
// follow-up-endpoints.ts for a release or an adjustment, which are not counted as check
// requests, as on node:http).

export function checkFrontHandler(enforcement: Enforcement): FrontHandler {
  return {
    bodyLimit(endpoint) {
      return endpoint === "check" || endpoint === "batch" ? bodyLimit(endpoint) : followUpLimit(endpoint);
    },
    refuse(request) {
      const caller = authenticate(enforcement, request.authorization);
      const { endpoint } = request;
      if (endpoint === "release" || endpoint === "adjust")
        return caller ? followUpTooLarge(endpoint) : UNAUTHORIZED;
      const answer = caller ? tooLarge(endpoint) : UNAUTHORIZED;
      checkMetrics.request(endpoint, answer.status);
      return answer;
    },
    serve(request, body, respond) {
      const { endpoint } = request;
      if (endpoint === "release" || endpoint === "adjust") {
        const caller = authenticate(enforcement, request.authorization);
        if (!caller) respond(UNAUTHORIZED);
        else answerFollowUp(enforcement, endpoint, caller, body, respond);
        return;
      }
      const answer = metered(endpoint, respond);
      const caller = authenticate(enforcement, request.authorization);
      if (!caller) answer(UNAUTHORIZED);
      else answerBody(enforcement, endpoint, caller, body, answer);
    },
  };
}
