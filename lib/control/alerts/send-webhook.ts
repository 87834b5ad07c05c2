import "server-only";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { resolveTarget, type ResolvedTarget } from "@/lib/control/alerts/guard/url-guard";

// One webhook attempt: POST the body to the checked address (the lookup is pinned to the
// address url-guard.ts approved; TLS still verifies the URL's host name), no redirects
// (a 3xx is a failed attempt), a deadline for the whole exchange, and at most
// RESPONSE_CAP bytes of the answer read (then the connection is dropped).

export const RESPONSE_CAP = 16 * 1024;

export interface WebhookAttempt {
  /** the HTTP status, or null when there was none (refused, timed out, blocked) */
  status: number | null;
  ok: boolean;
  /** why it failed, in a sentence; null when ok */
  error: string | null;
  /** a failure not worth retrying (a blocked target) */
  permanent: boolean;
}

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  allowPrivate: boolean;
  timeoutMs: number;
}

function pinned(target: ResolvedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

function post(target: ResolvedTarget, req: WebhookRequest): Promise<WebhookAttempt> {
  return new Promise((resolve) => {
    const send = target.url.protocol === "https:" ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (attempt: WebhookAttempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outgoing.destroy();
      resolve(attempt);
    };
    const outgoing = send(
      target.url,
      {
        method: "POST",
        lookup: pinned(target),
        headers: { ...req.headers, "content-length": Buffer.byteLength(req.body).toString() },
        agent: false,
      },
      (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > RESPONSE_CAP) finish(result(status, `answer larger than ${RESPONSE_CAP} bytes`));
        });
        response.on("end", () => finish(result(status, null)));
        response.on("error", () => finish(result(status, null)));
      },
    );
    const timer = setTimeout(
      () =>
        finish({ status: null, ok: false, error: `no answer within ${req.timeoutMs} ms`, permanent: false }),
      req.timeoutMs,
    );
    outgoing.on("error", (error: Error) =>
      finish({ status: null, ok: false, error: error.message.slice(0, 200), permanent: false }),
    );
    outgoing.end(req.body);
  });
}

function result(status: number, capped: string | null): WebhookAttempt {
  const ok = status >= 200 && status < 300;
  if (ok) return { status, ok, error: null, permanent: false };
  const error =
    status >= 300 && status < 400 ? `redirect (${status}) not followed` : (capped ?? `answered ${status}`);
  return { status, ok: false, error, permanent: false };
}

export async function sendWebhook(req: WebhookRequest): Promise<WebhookAttempt> {
  let target: ResolvedTarget;
  try {
    target = await resolveTarget(req.url, req.allowPrivate);
  } catch (error) {
    return { status: null, ok: false, error: (error as Error).message, permanent: true };
  }
  return post(target, req);
}
