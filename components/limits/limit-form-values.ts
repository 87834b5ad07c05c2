import { fullLimitSchema, limitSchema, type LimitDoc, type LimitFields } from "@/lib/control/config/document";
import { parseDuration, formatDuration } from "@/lib/shared/duration";
import type { LimitRule } from "@/lib/shared/limit-types";
import {
  CALENDAR_PERIODS,
  DEFAULT_TIME_ZONE,
  NOMINAL_PERIOD_MS,
  type CalendarPeriod,
} from "@/lib/shared/calendar";

// The editor's text fields <-> a limit document entry, validated with the same zod schemas
// the import and the API use. Empty fields are left out (an override then inherits them).

export const FIELDS = [
  "name",
  "by",
  "route",
  "algorithm",
  "limit",
  "window",
  "period",
  "timeZone",
  "burst",
  "action",
  "maxDelay",
  "mode",
  "onStoreFailure",
  "consistency",
  "syncEvery",
  "penaltyBlock",
  "penaltyGrow",
  "penaltyMax",
  "penaltyWindow",
] as const;
export type FieldName = (typeof FIELDS)[number];
export type FormValues = Record<FieldName, string>;

const NUMERIC: readonly FieldName[] = ["limit", "burst"];

// The penalty's four fields of the form <-> the document's `penalty` object (docs/algorithms.md).
const PENALTY_FIELDS = {
  penaltyBlock: "block",
  penaltyGrow: "grow",
  penaltyMax: "max",
  penaltyWindow: "window",
} as const satisfies Partial<Record<FieldName, string>>;
type PenaltyField = keyof typeof PENALTY_FIELDS;
const isPenaltyField = (f: FieldName): f is PenaltyField => f in PENALTY_FIELDS;
/** A schema path ["penalty", "block"] as the form field that shows its message. */
function fieldOfPath(path: readonly PropertyKey[]): string {
  if (path[0] !== "penalty") return String(path[0] ?? "_form");
  const inner = String(path[1] ?? "block");
  const found = (Object.keys(PENALTY_FIELDS) as PenaltyField[]).find((f) => PENALTY_FIELDS[f] === inner);
  return found ?? "penaltyBlock";
}

export function valuesOf(limit: LimitDoc | null, name: string): FormValues {
  const v = Object.fromEntries(FIELDS.map((f) => [f, ""])) as FormValues;
  v.name = limit?.name ?? name;
  if (!limit) return v;
  for (const f of FIELDS) {
    const raw = isPenaltyField(f)
      ? (limit.penalty as Record<string, unknown> | undefined)?.[PENALTY_FIELDS[f]]
      : (limit as Record<string, unknown>)[f];
    if (raw !== undefined) v[f] = String(raw);
  }
  if (limit.windowMs !== undefined) v.window = formatDuration(limit.windowMs);
  if (limit.maxDelayMs !== undefined) v.maxDelay = formatDuration(limit.maxDelayMs);
  return v;
}

export function toLimit(values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const penalty: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const text = values[f].trim();
    if (text === "") continue;
    if (isPenaltyField(f)) {
      const number = f === "penaltyGrow" && /^\d+(\.\d+)?$/.test(text) ? Number(text) : null;
      penalty[PENALTY_FIELDS[f]] = number ?? text;
      continue;
    }
    out[f] = NUMERIC.includes(f) && /^-?\d+$/.test(text) ? Number(text) : text;
  }
  if (Object.keys(penalty).length > 0) out.penalty = penalty;
  return out;
}

/** Field -> first message, from limitSchema (overrides) or fullLimitSchema (new base limits). */
export function validate(
  values: FormValues,
  isBase: boolean,
): { limit: LimitDoc | null; errors: Partial<Record<string, string>> } {
  const schema = isBase ? fullLimitSchema : limitSchema;
  const parsed = schema.safeParse(toLimit(values));
  if (parsed.success) return { limit: parsed.data, errors: {} };
  const errors: Partial<Record<string, string>> = {};
  for (const issue of parsed.error.issues) {
    const key = fieldOfPath(issue.path);
    errors[key] ??= issue.message;
  }
  return { limit: null, errors };
}

/** The fields the burst preview (and the replay) read, with their labels in the editor. */
const PREVIEW_FIELDS: Partial<Record<FieldName, string>> = {
  algorithm: "Algorithm",
  limit: "Limit",
  window: "Window",
  burst: "Burst",
  action: "When over",
  maxDelay: "Longest delay",
  period: "Period",
  timeZone: "Time zone",
};

/**
 * The first field the preview reads whose typed value is wrong, with its message. The
 * preview would otherwise fall back to the inherited value and simulate that ("-5" showed
 * "90 of 90 pass"). An empty field is not wrong here: it inherits, or the preview asks for it.
 */
export function previewBlocker(
  values: FormValues,
  errors: Partial<Record<string, string>>,
): { field: FieldName; label: string; message: string } | null {
  for (const [field, label] of Object.entries(PREVIEW_FIELDS) as [FieldName, string][]) {
    const message = errors[field];
    if (message && values[field].trim() !== "") return { field, label, message };
  }
  return null;
}

/** The rule the chart simulates: inherited values with the form's on top, when complete. */
export function previewRule(values: FormValues, inherited: LimitFields | null): LimitRule | null {
  const num = (t: string) => (/^\d+$/.test(t.trim()) ? Number(t) : undefined);
  const algorithm = (values.algorithm || inherited?.algorithm) as LimitRule["algorithm"] | undefined;
  const limit = num(values.limit) ?? inherited?.limit;
  if (algorithm === "calendar") return calendarPreview(values, inherited, limit);
  const windowMs = (values.window ? parseDuration(values.window) : null) ?? inherited?.windowMs;
  if (!algorithm || !limit || !windowMs || limit > 1_000_000_000) return null;
  const action = (values.action || inherited?.action || "reject") as LimitRule["action"];
  return {
    algorithm,
    limit,
    windowMs,
    burst: num(values.burst) ?? inherited?.burst ?? null,
    action,
    maxDelayMs: (values.maxDelay ? parseDuration(values.maxDelay) : null) ?? inherited?.maxDelayMs ?? null,
    mode: "enforce",
    onStoreFailure: "open",
  };
}

/** A calendar quota's preview: its period's nominal length as window, the zone typed or UTC. */
function calendarPreview(
  values: FormValues,
  inherited: LimitFields | null,
  limit: number | undefined,
): LimitRule | null {
  const period = CALENDAR_PERIODS.find((p) => p === (values.period || inherited?.period)) as
    CalendarPeriod | undefined;
  if (!period || !limit || limit > 1_000_000_000) return null;
  return {
    algorithm: "calendar",
    limit,
    windowMs: NOMINAL_PERIOD_MS[period],
    burst: null,
    action: "reject",
    maxDelayMs: null,
    mode: "enforce",
    onStoreFailure: "open",
    calendar: { period, timeZone: values.timeZone.trim() || inherited?.timeZone || DEFAULT_TIME_ZONE },
  };
}
