// One slot (a base declaration and its overrides) to one compiled limit: merge field by
// field, fill the defaults, name its identity after the base, record who set what.

import {
  describeOrigin,
  mergeLimitFields,
  setFieldNames,
  type LimitOrigin,
  type LimitSlot,
} from "@/lib/control/config/document";
import { DEFAULT_SYNC_EVERY_MS, LIMIT_DEFAULTS, type LimitRule } from "@/lib/shared/limit-types";
import { DEFAULT_TIME_ZONE, NOMINAL_PERIOD_MS } from "@/lib/shared/calendar";

import type { CompiledLimit, ProvenanceStep } from "../../../check/published/snapshot-types";

/** Resolves the key id of a key-level base; ids come from the IdMap. */
export type KeyIdOf = (keyName: string) => string;

function limitId(origin: LimitOrigin, name: string, keyIdOf: KeyIdOf): string {
  switch (origin.level) {
    case "plan":
      return `p:${origin.plan}:${name}`;
    case "route":
      return `r:${origin.scope}:${origin.pattern}:${name}`;
    case "tenant":
      return `t:${name}`;
    case "key":
      return `k:${keyIdOf(origin.key)}:${name}`;
  }
}

/**
 * null when the effective limit is disabled. Throws on a document that did not validate.
 * `timeZone`: the tenant's, for calendar limits that set none of their own.
 */
export function compileLimit(
  slot: LimitSlot,
  keyIdOf: KeyIdOf,
  timeZone: string = DEFAULT_TIME_ZONE,
): CompiledLimit | null {
  const base = slot.chain[0];
  const last = slot.chain[slot.chain.length - 1];
  if (!base || !last) throw new Error(`compileLimit: limit "${slot.name}" has no declaration`);
  const fields = mergeLimitFields(slot.chain.map((declaration) => declaration.fields));
  if (fields.disabled === true) return null;
  const { by, algorithm, limit, period } = fields;
  // a calendar limit's window is its period's nominal length (its bounds are the calendar's)
  const calendar =
    algorithm === "calendar" && period !== undefined
      ? { period, timeZone: fields.timeZone ?? timeZone }
      : undefined;
  const windowMs = calendar ? NOMINAL_PERIOD_MS[calendar.period] : fields.windowMs;
  if (by === undefined || algorithm === undefined || limit === undefined || windowMs === undefined) {
    throw new Error(
      `compileLimit: ${base.path} ("${slot.name}") lacks a rule field; validate the document first`,
    );
  }
  const action = fields.action ?? LIMIT_DEFAULTS.action;
  const rule: LimitRule = {
    algorithm,
    limit,
    windowMs,
    burst: fields.burst ?? null,
    action,
    // An inherited maxDelay means nothing once an override switched back to reject.
    maxDelayMs: action === "delay" ? (fields.maxDelayMs ?? null) : null,
    mode: fields.mode ?? LIMIT_DEFAULTS.mode,
    onStoreFailure: fields.onStoreFailure ?? LIMIT_DEFAULTS.onStoreFailure,
    ...(calendar ? { calendar } : {}),
  };
  if (fields.penalty !== undefined) rule.penalty = fields.penalty;
  const provenance: ProvenanceStep[] = slot.chain.map((declaration) => ({
    level: declaration.origin.level,
    source: describeOrigin(declaration.origin),
    fields: setFieldNames(declaration.fields),
  }));
  const compiled: CompiledLimit = {
    id: limitId(base.origin, slot.name, keyIdOf),
    name: slot.name,
    level: last.origin.level,
    by,
    route: fields.route ?? slot.declaredRoute,
    rule,
    provenance,
  };
  if (fields.consistency === "local") {
    compiled.local = { syncEveryMs: fields.syncEveryMs ?? DEFAULT_SYNC_EVERY_MS };
  }
  return compiled;
}

/** "plan free: by, algorithm, limit, window; key backend: limit, burst" for the dashboard. */
export function formatProvenance(steps: readonly ProvenanceStep[]): string {
  return steps.map((step) => `${step.source}: ${step.fields.join(", ") || "(nothing)"}`).join("; ");
}
