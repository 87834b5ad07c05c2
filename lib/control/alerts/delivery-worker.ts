import "server-only";
import { alertPayloadSchema, bodyFor } from "@/lib/control/alerts/payload";
import { sendWebhook } from "@/lib/control/alerts/send-webhook";
import { SIGNATURE_HEADER, signatureHeader } from "@/lib/control/alerts/signature";
import {
  claimDueDeliveries,
  endpointForDelivery,
  recordAttempt,
  type AttemptRecord,
  type ClaimedDelivery,
} from "@/lib/control/data/alerts/engine";
import { describeIssue } from "@/lib/shared/parse-stored";

// Sends due webhook messages: claims a batch (no other worker sends them meanwhile), posts
// each with a fresh timestamp and signature, and records the attempt. A failure is retried
// after retryBaseMs, doubling each time (at most an hour apart), until maxAttempts; a
// blocked target or a disabled endpoint fails at once. Attempts run side by side, so one
// slow endpoint holds up nobody else's longer than its timeout.

export interface WorkerOptions {
  retryBaseMs: number;
  maxAttempts: number;
  timeoutMs: number;
  /** SLUICE_ALERT_ALLOW_PRIVATE: every endpoint may reach private networks */
  allowPrivate: boolean;
  batch?: number;
}

const MAX_BACKOFF_MS = 3_600_000;

export function backoffMs(base: number, attemptsMade: number): number {
  return Math.min(MAX_BACKOFF_MS, base * 2 ** Math.max(0, attemptsMade - 1));
}

async function deliver(d: ClaimedDelivery, options: WorkerOptions): Promise<AttemptRecord> {
  const endpoint = await endpointForDelivery(d.tenantId, d.endpointId);
  if (!endpoint || endpoint.disabledAt)
    return {
      status: "failed",
      responseCode: null,
      lastError: "the endpoint is disabled",
      nextAttemptAt: null,
    };
  // a payload that does not fit will not fit on a retry either
  const payload = alertPayloadSchema.safeParse(d.payload);
  if (!payload.success)
    return {
      status: "failed",
      responseCode: null,
      lastError: `the stored payload does not fit at ${describeIssue(payload.error)}`.slice(0, 200),
      nextAttemptAt: null,
    };
  const body = bodyFor(endpoint.format, payload.data);
  const timestamp = Math.floor(Date.now() / 1000);
  const attempt = await sendWebhook({
    url: endpoint.url,
    body,
    allowPrivate: endpoint.allowPrivate || options.allowPrivate,
    timeoutMs: options.timeoutMs,
    headers: {
      "content-type": "application/json",
      "user-agent": "Sluice-Webhooks/1",
      "x-sluice-event": d.event,
      "x-sluice-delivery": d.id,
      "x-sluice-timestamp": String(timestamp),
      [SIGNATURE_HEADER]: signatureHeader(endpoint.secret, timestamp, body),
    },
  });
  const made = d.attempts + 1;
  if (attempt.ok)
    return { status: "delivered", responseCode: attempt.status, lastError: null, nextAttemptAt: null };
  const last = attempt.permanent || made >= options.maxAttempts;
  return {
    status: last ? "failed" : "pending",
    responseCode: attempt.status,
    lastError: attempt.error,
    nextAttemptAt: last ? null : new Date(Date.now() + backoffMs(options.retryBaseMs, made)),
  };
}

/** One pass; returns how many deliveries were attempted. */
export async function deliverDue(options: WorkerOptions): Promise<number> {
  const due = await claimDueDeliveries(options.batch ?? 20, options.timeoutMs + 5_000);
  await Promise.all(
    due.map(async (d) => {
      const record = await deliver(d, options).catch((error: unknown): AttemptRecord => ({
        status: "pending",
        responseCode: null,
        lastError: String(error).slice(0, 200),
        nextAttemptAt: new Date(Date.now() + backoffMs(options.retryBaseMs, d.attempts + 1)),
      }));
      await recordAttempt(d, record);
    }),
  );
  return due.length;
}
