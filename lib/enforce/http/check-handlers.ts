import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { decideBatch } from "@/lib/enforce/batch";
import { parseBatch, parseCheck } from "@/lib/enforce/body-schema";
import type { CheckAnswer } from "@/lib/enforce/check-service";
import type { Enforcement } from "@/lib/enforce/runtime";
import type { Caller } from "@/lib/enforce/service-auth";
import { readBody } from "@/lib/enforce/http/read-body";
import { deliverer } from "@/lib/enforce/http/turn-end-writes";
import type { DecisionBody, ErrorBody } from "@/lib/enforce/types";
import { sendDecision, sendError, sendJson } from "@/lib/enforce/http/respond";
import { checkMetrics } from "@/lib/metrics/check-metrics";

// POST /api/check and POST /api/check/batch on node:http. Order of refusals: credentials
// (401) before the body is read, then size (413), JSON syntax and fields (400), then the
// token's tenants (403). Nothing here throws to the server: a failure inside a decision is
// answered degraded by the store. Callbacks rather than async functions: no check creates
// a promise here (see CheckService.decide).

export const MAX_CHECK_BYTES = 64 * 1024;
// A batch holds up to 1000 checks of a few hundred bytes each.
export const MAX_BATCH_BYTES = 1024 * 1024;

type Endpoint = "check" | "batch";
type Done = () => void;

/** Authenticates, reads and parses the body; calls `next` with it, or answers the refusal. */
function begin(
  enforcement: Enforcement,
  endpoint: Endpoint,
  request: IncomingMessage,
  response: ServerResponse,
  next: (caller: Caller, body: unknown) => void,
  done: Done,
): void {
  const caller = enforcement.auth.authenticate(request.headers.authorization, enforcement.holder.current);
  if (!caller) {
    sendError(
      response,
      401,
      "unauthorized",
      "Send a service token as Authorization: Bearer <token>.",
      undefined,
      {
        "www-authenticate": 'Bearer realm="sluice"',
      },
    );
    done();
    return;
  }
  const limit = endpoint === "check" ? MAX_CHECK_BYTES : MAX_BATCH_BYTES;
  readBody(request, limit, (read) => {
    if (!read.ok) {
      if (read.problem === "too_large") {
        sendError(response, 413, "payload_too_large", `The body is over ${limit / 1024} KiB.`, undefined, {
          connection: "close",
        });
      } else response.destroy();
      done();
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(read.text);
    } catch {
      sendError(response, 400, "invalid_request", "The body is not valid JSON.");
      done();
      return;
    }
    try {
      next(caller, body);
    } catch (error) {
      fail(response, error);
      done();
    }
  });
}

/** The delivery of a decision (see turn-end-writes.ts); a failure while sending is answered by fail(). */
function answering<T>(response: ServerResponse, send: (value: T) => void): ReturnType<typeof deliverer<T>> {
  return deliverer((value: T) => {
    try {
      send(value);
    } catch (error) {
      fail(response, error);
    }
  });
}

function finisher(endpoint: Endpoint, response: ServerResponse): Done {
  const started = performance.now();
  return () => {
    checkMetrics.request(endpoint, response.statusCode);
    checkMetrics.latency((performance.now() - started) / 1000);
  };
}

function invalid(response: ServerResponse, error: { path: string; message: string }): void {
  sendError(response, 400, "invalid_request", `${error.path || "body"}: ${error.message}`, error.path);
}

export function handleCheck(
  enforcement: Enforcement,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const done = finisher("check", response);
  begin(
    enforcement,
    "check",
    request,
    response,
    (caller, body) => {
      const parsed = parseCheck(body);
      if (!parsed.ok) {
        invalid(response, parsed.error);
        done();
        return;
      }
      const send = (answer: CheckAnswer): void => {
        if (answer.status === 200) sendDecision(response, answer.body, answer.shared === true);
        else sendJson(response, answer.status, answer.body);
        done();
      };
      const answer = answering(response, send);
      enforcement.service.decide(parsed.value, caller, answer.callback);
      answer.settled();
    },
    done,
  );
}

export function handleBatch(
  enforcement: Enforcement,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const done = finisher("batch", response);
  begin(
    enforcement,
    "batch",
    request,
    response,
    (caller, body) => {
      const parsed = parseBatch(body);
      if (!parsed.ok) {
        invalid(response, parsed.error);
        done();
        return;
      }
      const answer = answering(response, (results: Array<DecisionBody | ErrorBody>) => {
        sendJson(response, 200, { results });
        done();
      });
      decideBatch(enforcement.service, parsed.value, caller, enforcement.checkTimeoutMs, answer.callback);
      answer.settled();
    },
    done,
  );
}

/** Unreachable by design; a last guard so a bug answers JSON instead of hanging. */
export function fail(response: ServerResponse, error: unknown): void {
  console.error("[sluice] check handler failed:", error);
  if (!response.headersSent) sendError(response, 500, "internal", "The check failed unexpectedly.");
  else response.destroy();
}
