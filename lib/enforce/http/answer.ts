import { rateLimitHeaders } from "@/lib/enforce/headers";
import type { DecisionBody, ErrorBody } from "@/lib/enforce/types";

// Answers of the check endpoints as text, independent of the transport that writes them:
// the lean front (lib/enforce/http/front) puts them on the socket as they are, node:http
// (connections handed to it) splits the header lines back into writeHead's form. Errors use
// api.md's shape; decisions carry the RateLimit headers.

export interface HttpAnswer {
  status: number;
  /** header lines, each "name: value\r\n"; not content-length, date or connection */
  headers: string;
  body: string;
  /** close the connection after this answer (a 413: the rest of the body is not read) */
  close?: boolean;
}

const JSON_HEADERS = "content-type: application/json\r\ncache-control: no-store\r\n";

function headerLines(extra: Record<string, string> | undefined): string {
  let lines = JSON_HEADERS;
  if (extra) for (const name in extra) lines += `${name}: ${extra[name]}\r\n`;
  return lines;
}

export function jsonAnswer(
  status: number,
  body: unknown,
  extra?: Record<string, string>,
  close = false,
): HttpAnswer {
  return { status, headers: headerLines(extra), body: JSON.stringify(body), close };
}

export function errorAnswer(
  status: number,
  code: string,
  message: string,
  path?: string,
  extra?: Record<string, string>,
  close = false,
): HttpAnswer {
  const body: ErrorBody = { error: path === undefined ? { code, message } : { code, message, path } };
  return jsonAnswer(status, body, extra, close);
}

// Renderings of shared bodies (deny cache hits within one ms are one body object).
const rendered = new WeakMap<DecisionBody, HttpAnswer>();

/** A 200 decision; `shared`: the body object is answered more than once and never modified. */
export function decisionAnswer(body: DecisionBody, shared = false): HttpAnswer {
  let answer = shared ? rendered.get(body) : undefined;
  if (!answer) {
    answer = renderDecision(body);
    if (shared) rendered.set(body, answer);
  }
  return answer;
}

function renderDecision(body: DecisionBody): HttpAnswer {
  const { policy, rateLimit, retryAfter } = rateLimitHeaders(body);
  let headers = JSON_HEADERS;
  if (policy !== null) headers += `ratelimit-policy: ${policy}\r\n`;
  if (rateLimit !== null) headers += `ratelimit: ${rateLimit}\r\n`;
  if (retryAfter !== null) headers += `retry-after: ${retryAfter}\r\n`;
  return { status: 200, headers, body: JSON.stringify(body) };
}
