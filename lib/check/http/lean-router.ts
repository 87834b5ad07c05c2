import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Enforcement } from "@/lib/check/runtime";
import { refreshProcessMetrics } from "@/lib/check/process-metrics";
import {
  answerBody,
  authenticate,
  bodyLimit,
  metered,
  tooLarge,
  UNAUTHORIZED,
  type Endpoint,
} from "@/lib/check/http/check-endpoint";
import { errorAnswer, type HttpAnswer } from "@/lib/check/answer";
import { readBody } from "@/lib/check/http/read-body";
import { deliverer } from "@/lib/check/http/turn-end-writes";
import { writeAnswer } from "@/lib/check/http/node-write";
import { extraMetricsText, registry } from "@/lib/check/check-metrics";
import { stallSpansAnswer } from "@/lib/check/http/stall-spans-endpoint";
import {
  answerFollowUp,
  followUpLimit,
  followUpTooLarge,
  type FollowUp,
} from "@/lib/check/http/follow-up-endpoints";

// The enforcement endpoints on node:http: /api/check, /api/check/batch, /api/check/release
// and /api/check/adjust for connections the lean front handed over (lib/check/http/front: a
// request it does not answer itself, such as a chunked body, came first), /api/metrics and
// /api/metrics/stalls.
// Everything else goes to Next.
// Returns false for paths it does not own.

function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
}

const methodNotAllowed = (allow: string): HttpAnswer =>
  errorAnswer(405, "method_not_allowed", `Use ${allow} here.`, undefined, { allow });

function serveCheck(
  enforcement: Enforcement,
  endpoint: Endpoint,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const respond = metered(endpoint, (answer) => writeAnswer(response, answer));
  const caller = authenticate(enforcement, request.headers.authorization);
  if (!caller) {
    respond(UNAUTHORIZED);
    return;
  }
  readBody(request, bodyLimit(endpoint), (read) => {
    if (!read.ok) {
      if (read.problem === "too_large") respond(tooLarge(endpoint));
      else response.destroy();
      return;
    }
    // answers decided from memory wait for the end of the turn (see turn-end-writes.ts)
    const delivery = deliverer(respond);
    answerBody(enforcement, endpoint, caller, read.text, delivery.callback);
    delivery.settled();
  });
}

/** POST /api/check/release or /api/check/adjust: the caller as for a check, then the body. */
function serveFollowUp(
  enforcement: Enforcement,
  endpoint: FollowUp,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const respond = (answer: HttpAnswer) => writeAnswer(response, answer);
  const caller = authenticate(enforcement, request.headers.authorization);
  if (!caller) {
    respond(UNAUTHORIZED);
    return;
  }
  readBody(request, followUpLimit(endpoint), (read) => {
    if (read.ok) answerFollowUp(enforcement, endpoint, caller, read.text, respond);
    else if (read.problem === "too_large") respond(followUpTooLarge(endpoint));
    else response.destroy();
  });
}

export function leanRoute(
  enforcement: Enforcement,
  request: IncomingMessage,
  response: ServerResponse,
): boolean {
  const path = pathOf(request.url ?? "");
  switch (path) {
    case "/api/check":
    case "/api/check/batch": {
      if (request.method !== "POST") writeAnswer(response, methodNotAllowed("POST"));
      else serveCheck(enforcement, path === "/api/check" ? "check" : "batch", request, response);
      return true;
    }
    case "/api/check/adjust":
    case "/api/check/release": {
      if (request.method !== "POST") writeAnswer(response, methodNotAllowed("POST"));
      else serveFollowUp(enforcement, path === "/api/check/adjust" ? "adjust" : "release", request, response);
      return true;
    }
    case "/api/metrics": {
      if (request.method !== "GET" && request.method !== "HEAD") {
        writeAnswer(response, methodNotAllowed("GET"));
        return true;
      }
      refreshProcessMetrics();
      const body = registry.render() + extraMetricsText();
      const headers = "content-type: text/plain; version=0.0.4; charset=utf-8\r\ncache-control: no-store\r\n";
      writeAnswer(response, { status: 200, headers, body }, request.method === "HEAD");
      return true;
    }
    case "/api/metrics/stalls": {
      if (request.method !== "GET" && request.method !== "HEAD")
        writeAnswer(response, methodNotAllowed("GET"));
      else writeAnswer(response, stallSpansAnswer(request.url ?? ""), request.method === "HEAD");
      return true;
    }
    default:
      return false;
  }
}
