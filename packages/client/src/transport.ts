import { errorOf, neverSent } from "./fallback";
import type { ClientError } from "./types";

// One POST to Sluice with a hard deadline (AbortSignal.timeout, which also covers reading
// the body). Node's fetch (undici) keeps connections alive, so calls after the first reuse
// them. Retries happen only when the request provably never left (connection refused), or
// for dry runs, which consume nothing.

export type Answer = { ok: true; body: unknown } | { ok: false; error: ClientError };

export interface TransportOptions {
  url: string;
  token: string;
  timeoutMs: number;
  retries: number;
  fetch: typeof fetch;
}

function errorBody(body: unknown): { code?: string; message?: string; path?: string } {
  if (typeof body !== "object" || body === null || !("error" in body)) return {};
  const error = (body as { error: unknown }).error;
  return typeof error === "object" && error !== null ? (error as { code?: string }) : {};
}

export async function postJson(
  options: TransportOptions,
  path: string,
  payload: unknown,
  idempotent: boolean,
  signal?: AbortSignal,
): Promise<Answer> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const combined = signal ? AbortSignal.any([deadline, signal]) : deadline;
  const body = JSON.stringify(payload);
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await options.fetch(`${options.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json" },
        body,
        signal: combined,
      });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (response.status === 200 && parsed !== undefined) return { ok: true, body: parsed };
      const error = errorBody(parsed);
      return {
        ok: false,
        error: {
          kind: response.status === 200 ? "invalid_answer" : "http",
          status: response.status,
          message: error.message ?? `Sluice answered ${response.status}`,
          ...(error.code !== undefined ? { code: error.code } : {}),
          ...(error.path !== undefined ? { path: error.path } : {}),
        },
      };
    } catch (thrown) {
      const retry = attempt < options.retries && !combined.aborted && (idempotent || neverSent(thrown));
      if (!retry) return { ok: false, error: errorOf(thrown, options.timeoutMs) };
    }
  }
}
