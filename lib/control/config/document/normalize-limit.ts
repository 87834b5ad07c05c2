// A limit's fields with each duration in its one canonical spelling (milliseconds), and
// the field-by-field merge that inheritance means (docs/configuration.md: unset fields inherit).

import { parseDuration } from "@/lib/shared/duration";

import type { LimitDoc } from "./limit-schema";
import { penaltyOf } from "./penalty-schema";

import type { LimitFieldName, LimitFields } from "@/lib/shared/config-terms";

export type { LimitFieldName, LimitFields };

const FIELD_ORDER: readonly (keyof LimitFields)[] = [
  "by",
  "route",
  "algorithm",
  "limit",
  "windowMs",
  "period",
  "timeZone",
  "burst",
  "action",
  "maxDelayMs",
  "mode",
  "onStoreFailure",
  "consistency",
  "syncEveryMs",
  "penalty",
  "disabled",
];

function durationMs(text: string | number | undefined, ms: number | undefined): number | undefined {
  if (ms !== undefined) return ms;
  if (text === undefined) return undefined;
  return parseDuration(text) ?? undefined;
}

/** Only the fields the declaration sets; a validated limit's durations always parse. */
export function normalizeLimit(limit: LimitDoc): LimitFields {
  const candidate: LimitFields = {
    by: limit.by,
    route: limit.route,
    algorithm: limit.algorithm,
    limit: limit.limit,
    windowMs: durationMs(limit.window, limit.windowMs),
    period: limit.period,
    timeZone: limit.timeZone,
    burst: limit.burst,
    action: limit.action,
    maxDelayMs: durationMs(limit.maxDelay, limit.maxDelayMs),
    mode: limit.mode,
    onStoreFailure: limit.onStoreFailure,
    consistency: limit.consistency,
    syncEveryMs: durationMs(limit.syncEvery, undefined),
    penalty: limit.penalty === undefined ? undefined : penaltyOf(limit.penalty),
    disabled: limit.disabled,
  };
  const out: Record<string, unknown> = {};
  for (const field of FIELD_ORDER) {
    if (candidate[field] !== undefined) out[field] = candidate[field];
  }
  return out as LimitFields;
}

export function setFieldNames(fields: LimitFields): LimitFieldName[] {
  return FIELD_ORDER.filter((field) => fields[field] !== undefined).map((field) =>
    field === "windowMs"
      ? "window"
      : field === "maxDelayMs"
        ? "maxDelay"
        : field === "syncEveryMs"
          ? "syncEvery"
          : field,
  );
}

/** Later declarations win, field by field. */
export function mergeLimitFields(chain: readonly LimitFields[]): LimitFields {
  return Object.assign({}, ...chain) as LimitFields;
}
