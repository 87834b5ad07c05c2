import "server-only";
import { batchWorks } from "@/lib/check/batch";
import { parseBatch, parseCheck } from "@/lib/check/body-schema";
import type { CheckAnswer } from "@/lib/check/check-answer";
import type { Enforcement } from "@/lib/check/runtime";
import type { Caller } from "@/lib/check/service-auth";
import { decisionAnswer, errorAnswer, jsonAnswer, JSON_HEADERS, type HttpAnswer } from "@/lib/check/answer";
import type { Endpoint } from "@/lib/check/http/front/request-head";
import { checkMetrics } from "@/lib/check/check-metrics";
import { admit, refusedUnread } from "@/lib/check/fair/fair-admission";
import { answerRefusal } from "@/lib/check/fair/refusal-hold";
import { lateCause, loopStalls } from "@/lib/check/loop-stalls";

// POST /api/check and POST /api/check/batch, whatever carries them (the lean front, or
// node:http for connections handed to it). Order of refusals: credentials (401) before the
// body is read, then size (413), JSON syntax and fields (400), then the token's tenants
// (403). An answer comes through `respond`, at once when decided from memory or when Redis
// answers; nothing here throws to the transport. Callbacks rather than promises: this runs
// once per check (see CheckService.decide).

export type { Endpoint };
export type Respond = (answer: HttpAnswer) => void;

export const MAX_CHECK_BYTES = 64 * 1024;
// A batch holds up to 1000 checks of a few hundred bytes each.
export const MAX_BATCH_BYTES = 1024 * 1024;

export const bodyLimit = (endpoint: Endpoint): number =>
  endpoint === "check" ? MAX_CHECK_BYTES : MAX_BATCH_BYTES;

export const UNAUTHORIZED: HttpAnswer = errorAnswer(
  401,
  "unauthorized",
  "Send a service token as Authorization: Bearer <token>.",
  undefined,
  { "www-authenticate": 'Bearer realm="sluice"' },
);

const TOO_LARGE: Record<Endpoint, HttpAnswer> = {
  check: errorAnswer(
    413,
    "payload_too_large",
    `The body is over ${MAX_CHECK_BYTES / 1024} KiB.`,
    undefined,
    undefined,
    true,
  ),
  batch: errorAnswer(
    413,
    "payload_too_large",
    `The body is over ${MAX_BATCH_BYTES / 1024} KiB.`,
    undefined,
    undefined,
    true,
  ),
};

/** 413, closing the connection: the rest of an oversized body is never read. */
export const tooLarge = (endpoint: Endpoint): HttpAnswer => TOO_LARGE[endpoint];

const NOT_JSON = errorAnswer(400, "invalid_request", "The body is not valid JSON.");

export function authenticate(enforcement: Enforcement, authorization: string | undefined): Caller | null {
  return enforcement.auth.authenticate(authorization, enforcement.holder.current);
}

// A single check owes its answer within the check timeout + 50 ms (docs/api.md); one later
// is counted by why (loop-stalls.ts). Set by the front at start, with the stall watch.
let lateAfterMs = Infinity;

export function watchLateAnswers(checkTimeoutMs: number): void {
  lateAfterMs = checkTimeoutMs + 50;
  loopStalls.start();
}

/** Counts the request by endpoint and status, with its latency from now to its answer. */
export function metered(endpoint: Endpoint, respond: Respond): Respond {
  const started = performance.now();
  return (answer) => {
    const elapsed = performance.now() - started;
    checkMetrics.request(endpoint, answer.status);
    // a refusal is held on purpose (refusal-hold.ts): neither a check's latency nor late
    if (answer.status !== 429) {
      checkMetrics.latency(elapsed / 1000);
      if (elapsed > lateAfterMs && endpoint === "check")
        checkMetrics.late(lateCause(loopStalls, started, elapsed, lateAfterMs));
    }
    respond(answer);
  };
}

/** Unreachable by design; a last guard so a bug answers JSON instead of hanging. */
export function internalError(error: unknown): HttpAnswer {
  console.error("[sluice] check handler failed:", error);
  return errorAnswer(500, "internal", "The check failed unexpectedly.");
}

function invalid(error: { path: string; message: string }): HttpAnswer {
  return errorAnswer(400, "invalid_request", `${error.path || "body"}: ${error.message}`, error.path);
}

/** Answers a request whose body was read (its size already checked) for an authenticated caller. */
export function answerBody(
  enforcement: Enforcement,
  endpoint: Endpoint,
  caller: Caller,
  text: string,
  respond: Respond,
): void {
  const unread = endpoint === "batch" ? refusedUnread(enforcement, caller) : null;
  if (unread !== null) {
    answerRefusal(respond, unread, enforcement.fair.refused);
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    respond(NOT_JSON);
    return;
  }
  try {
    if (endpoint === "check") answerCheck(enforcement, caller, body, respond);
    else answerBatch(enforcement, caller, body, respond);
  } catch (error) {
    respond(internalError(error));
  }
}

function answerCheck(enforcement: Enforcement, caller: Caller, body: unknown, respond: Respond): void {
  const parsed = parseCheck(body);
  if (!parsed.ok) {
    respond(invalid(parsed.error));
    return;
  }
  const input = parsed.value;
  const work = {
    cost: 1,
    run(done: () => void): void {
      // the decision is already text (rendered by the check service): nothing left here to fail
      enforcement.service.decide(input, caller, (answer: CheckAnswer) => {
        respond(
          answer.status === 200 ? decisionAnswer(answer.decision) : jsonAnswer(answer.status, answer.body),
        );
        done();
      });
    },
  };
  const refused = admit(enforcement, caller, 1, [work]);
  if (refused !== null) answerRefusal(respond, refused, enforcement.fair.refused);
}

function answerBatch(enforcement: Enforcement, caller: Caller, body: unknown, respond: Respond): void {
  const parsed = parseBatch(body);
  if (!parsed.ok) {
    respond(invalid(parsed.error));
    return;
  }
  const works = batchWorks(
    enforcement.service,
    parsed.value,
    caller,
    enforcement.checkTimeoutMs,
    enforcement.fair.gate.options.quantum,
    (json: Buffer) => respond({ status: 200, headers: JSON_HEADERS, body: json }),
  );
  const refused = admit(enforcement, caller, parsed.value.length, works);
  if (refused !== null) answerRefusal(respond, refused, enforcement.fair.refused);
}
