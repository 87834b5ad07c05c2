import type { ServerResponse } from "node:http";
import { rateLimitHeaders } from "@/lib/enforce/headers";
import type { DecisionBody, ErrorBody } from "@/lib/enforce/types";

// Writing answers on the lean path: one writeHead with every header, one end. Errors use
// api.md's shape; decisions carry the RateLimit headers.

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  extra?: Record<string, string>,
): void {
  const json = JSON.stringify(body);
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(json),
    "cache-control": "no-store",
    ...extra,
  };
  response.writeHead(status, headers);
  response.end(json);
}

export function sendError(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  path?: string,
  extra?: Record<string, string>,
): void {
  const body: ErrorBody = { error: path === undefined ? { code, message } : { code, message, path } };
  sendJson(response, status, body, extra);
}

type Rendered = { json: string; headers: Record<string, string | number> };

// Renderings of shared bodies (deny cache hits within one ms are one body object).
const rendered = new WeakMap<DecisionBody, Rendered>();

/** `shared`: the body object is answered more than once and never modified. */
export function sendDecision(response: ServerResponse, body: DecisionBody, shared = false): void {
  let out = shared ? rendered.get(body) : undefined;
  if (!out) {
    out = render(body);
    if (shared) rendered.set(body, out);
  }
  response.writeHead(200, out.headers);
  response.end(out.json);
}

function render(body: DecisionBody): Rendered {
  const json = JSON.stringify(body);
  const { policy, rateLimit, retryAfter } = rateLimitHeaders(body);
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(json),
    "cache-control": "no-store",
  };
  if (policy !== null) headers["ratelimit-policy"] = policy;
  if (rateLimit !== null) headers["ratelimit"] = rateLimit;
  if (retryAfter !== null) headers["retry-after"] = retryAfter;
  return { json, headers };
}
