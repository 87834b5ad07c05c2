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
import type { FrontHandler } from "@/lib/check/http/front/contract";
import { checkMetrics } from "@/lib/check/check-metrics";

// The check endpoints as the lean front serves them (lib/enforce/http/front): the same
// answers as on node:http (lean-router.ts), from the same core (check-endpoint.ts).

export function checkFrontHandler(enforcement: Enforcement): FrontHandler {
  return {
    bodyLimit,
    refuse(request) {
      const caller = authenticate(enforcement, request.authorization);
      const answer = caller ? tooLarge(request.endpoint) : UNAUTHORIZED;
      checkMetrics.request(request.endpoint, answer.status);
      return answer;
    },
    serve(request, body, respond) {
      const answer = metered(request.endpoint, respond);
      const caller = authenticate(enforcement, request.authorization);
      if (!caller) answer(UNAUTHORIZED);
      else answerBody(enforcement, request.endpoint, caller, body, answer);
    },
  };
}
