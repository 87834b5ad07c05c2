import "server-only";
import type { Enforcement } from "@/lib/check/runtime";
import type { Caller } from "@/lib/check/service-auth";
import { errorAnswer, type HttpAnswer } from "@/lib/check/answer";
import { answerAdjust, MAX_ADJUST_BYTES } from "@/lib/check/http/adjust-endpoint";
import { answerRelease, MAX_RELEASE_BYTES } from "@/lib/check/lease/release-endpoint";

// POST /api/check/release and /api/check/adjust: the requests that follow a check on the
// same connection (a lease ended, a cost charged or refunded). The lean front answers them
// (front-handler.ts) so that a keep-alive connection that sent one stays on the front: handed
// to the app process, every later check on it came back over the private socket, at about a
// tenth of the rate (issue 39's bench, (kc) and (kaa)). node:http answers them from the same
// cores for connections handed over (lean-router.ts).

export type FollowUp = "release" | "adjust";

const LIMITS: Record<FollowUp, number> = { release: MAX_RELEASE_BYTES, adjust: MAX_ADJUST_BYTES };

const TOO_LARGE: Record<FollowUp, HttpAnswer> = {
  release: errorAnswer(
    413,
    "payload_too_large",
    `The body is over ${MAX_RELEASE_BYTES / 1024} KiB.`,
    undefined,
    undefined,
    true,
  ),
  adjust: errorAnswer(
    413,
    "payload_too_large",
    `The body is over ${MAX_ADJUST_BYTES / 1024} KiB.`,
    undefined,
    undefined,
    true,
  ),
};

export const followUpLimit = (endpoint: FollowUp): number => LIMITS[endpoint];

/** 413, closing the connection: the rest of an oversized body is never read. */
export const followUpTooLarge = (endpoint: FollowUp): HttpAnswer => TOO_LARGE[endpoint];

/** Answers a follow-up whose body was read (its size already checked) for an authenticated caller. */
export function answerFollowUp(
  enforcement: Enforcement,
  endpoint: FollowUp,
  caller: Caller,
  text: string,
  respond: (answer: HttpAnswer) => void,
): void {
  if (endpoint === "release") answerRelease(enforcement, caller, text, respond);
  else answerAdjust(enforcement, caller, text, respond);
}
