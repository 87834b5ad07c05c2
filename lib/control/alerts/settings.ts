import "server-only";
import { env } from "@/lib/shared/env";

// Alert settings read once from lib/shared/env (docs/alerts.md lists them).

export interface AlertSettings {
  evalEveryMs: number;
  retryBaseMs: number;
  maxAttempts: number;
  timeoutMs: number;
  /** every endpoint may reach private networks (an operator's choice for trusted installations) */
  allowPrivate: boolean;
  ns: string;
}

export function alertSettings(): AlertSettings {
  const e = env();
  return {
    evalEveryMs: e.SLUICE_ALERT_EVAL_MS,
    retryBaseMs: e.SLUICE_ALERT_RETRY_BASE_MS,
    maxAttempts: e.SLUICE_ALERT_MAX_ATTEMPTS,
    timeoutMs: e.SLUICE_ALERT_TIMEOUT_MS,
    allowPrivate: e.SLUICE_ALERT_ALLOW_PRIVATE === "on",
    ns: e.REDIS_PREFIX,
  };
}
