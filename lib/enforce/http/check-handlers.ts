import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { decideBatch } from "@/lib/enforce/batch";
import { parseBatch, parseCheck } from "@/lib/enforce/body-schema";
import type { Enforcement } from "@/lib/enforce/runtime";
import type { Caller } from "@/lib/enforce/service-auth";
import { readBody } from "@/lib/enforce/http/read-body";
import { sendDecision, sendError, sendJson } from "@/lib/enforce/http/respond";
import { checkMetrics } from "@/lib/metrics/check-metrics";

// POST /api/check and POST /api/check/batch on node:http. Order of refusals: credentials
// (401) before the body is read, then size (413), JSON syntax and fields (400), then the
// token's tenants (403). Nothing here throws to the server: a failure inside a decision is
// answered degraded by the store, and anything unexpected still gets a JSON answer.

export const MAX_CHECK_BYTES = 64 * 1024;
// A batch holds up to 1000 checks of a few hundred bytes each.
export const MAX_BATCH_BYTES = 1024 * 1024;

type Endpoint = "check" | "batch";

async function begin(
  enforcement: Enforcement,
  endpoint: Endpoint,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<{ caller: Caller; body: unknown } | null> {
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
    return null;
  }
  const limit = endpoint === "check" ? MAX_CHECK_BYTES : MAX_BATCH_BYTES;
  const read = await readBody(request, limit);
  if (!read.ok) {
    if (read.problem === "too_large") {
      sendError(response, 413, "payload_too_large", `The body is over ${limit / 1024} KiB.`, undefined, {
        connection: "close",
      });
    } else response.destroy();
    return null;
  }
  try {
    return { caller, body: JSON.parse(read.text) as unknown };
  } catch {
    sendError(response, 400, "invalid_request", "The body is not valid JSON.");
    return null;
  }
}

export async function handleCheck(
  enforcement: Enforcement,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const started = performance.now();
  const start = await begin(enforcement, "check", request, response);
  if (start) {
    const parsed = parseCheck(start.body);
    if (!parsed.ok) {
      sendError(
        response,
        400,
        "invalid_request",
        `${parsed.error.path || "body"}: ${parsed.error.message}`,
        parsed.error.path,
      );
    } else {
      const answer = await enforcement.service.decide(parsed.value, start.caller);
      if (answer.status === 200) sendDecision(response, answer.body);
      else sendJson(response, answer.status, answer.body);
    }
  }
  checkMetrics.request("check", response.statusCode);
  checkMetrics.latency((performance.now() - started) / 1000);
}

export async function handleBatch(
  enforcement: Enforcement,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const started = performance.now();
  const start = await begin(enforcement, "batch", request, response);
  if (start) {
    const parsed = parseBatch(start.body);
    if (!parsed.ok) {
      sendError(
        response,
        400,
        "invalid_request",
        `${parsed.error.path || "body"}: ${parsed.error.message}`,
        parsed.error.path,
      );
    } else {
      const results = await decideBatch(
        enforcement.service,
        parsed.value,
        start.caller,
        enforcement.checkTimeoutMs,
      );
      sendJson(response, 200, { results });
    }
  }
  checkMetrics.request("batch", response.statusCode);
  checkMetrics.latency((performance.now() - started) / 1000);
}
