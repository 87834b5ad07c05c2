// Rules that need inheritance resolved: a base limit must have every rule field, only an
// override may disable, and the combination of fields that a declaration produces (after
// what it inherits) must make sense. Each problem is reported once, at the declaration
// where it first appears, on the field that declaration set.

import { exactnessProblem } from "@/lib/shared/limit-exactness";
import { DELAY_ALGORITHMS, LOCAL_ALGORITHMS, type LimitRule } from "@/lib/shared/limit-types";

import type { DocumentError } from "./document-error";
import type { LimitDeclaration, LimitSlot } from "./inheritance";
import { describeOrigin, type LimitOrigin } from "./limit-origin";
import { mergeLimitFields, type LimitFields } from "./normalize-limit";
import { checkPenalty } from "./check-penalty";
import { checkCalendar } from "./check-calendar";

const REQUIRED: readonly { field: keyof LimitFields; label: string }[] = [
  { field: "by", label: "by" },
  { field: "algorithm", label: "algorithm" },
  { field: "limit", label: "limit" },
  { field: "windowMs", label: "window" },
];

/** Where a base of this origin could have inherited from, for "required" messages. */
function nothingToInherit(origin: LimitOrigin, name: string): string {
  switch (origin.level) {
    case "plan":
      return "";
    case "route":
      return origin.scope === "global"
        ? ""
        : `: no limit named "${name}" on the global route "${origin.pattern}" to inherit it from`;
    case "tenant":
      return `: no plan or route limit named "${name}" to inherit it from`;
    case "key":
      return `: no tenant, plan or route limit named "${name}" to inherit it from`;
  }
}

function checkBase(base: LimitDeclaration): DocumentError[] {
  const errors: DocumentError[] = [];
  const calendar = base.fields.algorithm === "calendar";
  // a calendar limit counts its period instead of a window (check-calendar.ts)
  const required = calendar
    ? [...REQUIRED.filter((r) => r.field !== "windowMs"), { field: "period" as const, label: "period" }]
    : REQUIRED;
  for (const { field, label } of required) {
    if (base.fields[field] === undefined) {
      errors.push({
        path: `${base.path}.${label}`,
        message: `required${nothingToInherit(base.origin, base.name)}`,
      });
    }
  }
  if (base.fields.disabled === true) {
    errors.push({
      path: `${base.path}.disabled`,
      message: `only an override can be disabled, and this limit overrides nothing; remove the limit instead`,
    });
  }
  return errors;
}

const cannotDelay = (fields: LimitFields): boolean =>
  fields.action === "delay" && fields.algorithm !== undefined && !DELAY_ALGORITHMS.includes(fields.algorithm);

/** Where the field's value came from among earlier declarations ("plan free"), or null. */
function sourceOf(chain: readonly LimitDeclaration[], field: keyof LimitFields): string | null {
  for (let i = chain.length - 1; i >= 0; i--) {
    const declaration = chain[i] as LimitDeclaration;
    if (declaration.fields[field] !== undefined) return describeOrigin(declaration.origin);
  }
  return null;
}

/** " (from plan free)" when the field's value came from an earlier declaration. */
function inheritedFrom(chain: readonly LimitDeclaration[], field: keyof LimitFields): string {
  const source = sourceOf(chain, field);
  return source === null ? "" : ` (from ${source})`;
}

function checkStep(chain: readonly LimitDeclaration[], index: number): DocumentError[] {
  const declaration = chain[index] as LimitDeclaration;
  const earlier = chain.slice(0, index);
  const before = index > 0 ? mergeLimitFields(earlier.map((d) => d.fields)) : null;
  const now = mergeLimitFields([...earlier, declaration].map((d) => d.fields));
  const errors: DocumentError[] = [];
  if (cannotDelay(now) && !(before && cannotDelay(before))) {
    if (declaration.fields.action !== undefined) {
      errors.push({
        path: `${declaration.path}.action`,
        message: `action delay works only with algorithm gcra or leaky_bucket, and this limit's algorithm is ${now.algorithm}${declaration.fields.algorithm === undefined ? inheritedFrom(earlier, "algorithm") : ""}`,
      });
    } else {
      errors.push({
        path: `${declaration.path}.algorithm`,
        message: `${now.algorithm} cannot delay, and this limit has action: delay${inheritedFrom(earlier, "action")}; use gcra or leaky_bucket, or set action: reject`,
      });
    }
  }
  if (declaration.fields.maxDelayMs !== undefined && now.action !== "delay") {
    const spelling = declaration.written.maxDelay !== undefined ? "maxDelay" : "maxDelayMs";
    const action =
      now.action === undefined
        ? "reject (the default)"
        : `${now.action}${declaration.fields.action === undefined ? inheritedFrom(earlier, "action") : ""}`;
    errors.push({
      path: `${declaration.path}.${spelling}`,
      message: `${spelling} applies only with action: delay, and this limit's action is ${action}`,
    });
  }
  return errors;
}

/** The rule the merged fields make, once every required field is known. */
function ruleOf(fields: LimitFields): LimitRule | null {
  const { algorithm, limit, windowMs } = fields;
  if (algorithm === undefined || limit === undefined || windowMs === undefined) return null;
  return {
    algorithm,
    limit,
    windowMs,
    burst: fields.burst ?? null,
    action: fields.action ?? "reject",
    maxDelayMs: fields.maxDelayMs ?? null,
    mode: fields.mode ?? "enforce",
    onStoreFailure: fields.onStoreFailure ?? "open",
  };
}

/** Numbers too large for exact counting, reported where they first become so. */
function checkExactness(chain: readonly LimitDeclaration[], index: number): DocumentError[] {
  const fieldsUpTo = (end: number) => mergeLimitFields(chain.slice(0, end).map((d) => d.fields));
  const now = ruleOf(fieldsUpTo(index + 1));
  const before = index > 0 ? ruleOf(fieldsUpTo(index)) : null;
  const problem = now ? exactnessProblem(now) : null;
  if (!problem || (before && exactnessProblem(before))) return [];
  return [
    {
      path: (chain[index] as LimitDeclaration).path,
      message: `numbers too large to count exactly: ${problem}`,
    },
  ];
}

/** A sliding log keeps an entry per admitted check in Redis: capped so one limit cannot fill it. */
export const MAX_SLIDING_LOG_LIMIT = 10_000;

const oversizedLog = (fields: LimitFields): boolean =>
  fields.algorithm === "sliding_log" && fields.limit !== undefined && fields.limit > MAX_SLIDING_LOG_LIMIT;

/** A sliding_log over the cap, reported where the merged rule first becomes one. */
function checkLogSize(chain: readonly LimitDeclaration[], index: number): DocumentError[] {
  const declaration = chain[index] as LimitDeclaration;
  const earlier = chain.slice(0, index);
  const now = mergeLimitFields([...earlier, declaration].map((d) => d.fields));
  if (!oversizedLog(now)) return [];
  if (index > 0 && oversizedLog(mergeLimitFields(earlier.map((d) => d.fields)))) return [];
  const field = declaration.fields.limit !== undefined ? "limit" : "algorithm";
  const other = field === "limit" ? "algorithm" : "limit";
  const source = sourceOf(earlier, other);
  const inherited = source === null ? "" : ` (its ${other} from ${source})`;
  return [
    {
      path: `${declaration.path}.${field}`,
      message: `sliding_log keeps one entry per admitted request, so its limit must be at most ${MAX_SLIDING_LOG_LIMIT}, and this one is ${now.limit}${inherited}; use sliding_window for larger limits`,
    },
  ];
}

const cannotCountLocally = (fields: LimitFields): boolean =>
  fields.consistency === "local" &&
  fields.algorithm !== undefined &&
  !LOCAL_ALGORITHMS.includes(fields.algorithm);

/** consistency: local needs an algorithm whose state merges; syncEvery needs local. */
function checkLocal(chain: readonly LimitDeclaration[], index: number): DocumentError[] {
  const declaration = chain[index] as LimitDeclaration;
  const earlier = chain.slice(0, index);
  const now = mergeLimitFields([...earlier, declaration].map((d) => d.fields));
  const errors: DocumentError[] = [];
  const before = index > 0 ? mergeLimitFields(earlier.map((d) => d.fields)) : null;
  if (cannotCountLocally(now) && !(before && cannotCountLocally(before))) {
    const allowed = LOCAL_ALGORITHMS.join(", ");
    errors.push(
      declaration.fields.consistency !== undefined
        ? {
            path: `${declaration.path}.consistency`,
            message: `consistency local works only with algorithm ${allowed}, and this limit's algorithm is ${now.algorithm}${declaration.fields.algorithm === undefined ? inheritedFrom(earlier, "algorithm") : ""}`,
          }
        : {
            path: `${declaration.path}.algorithm`,
            message: `${now.algorithm} cannot be counted locally, and this limit has consistency: local${inheritedFrom(earlier, "consistency")}; use ${allowed}, or set consistency: exact`,
          },
    );
  }
  if (declaration.fields.syncEveryMs !== undefined && now.consistency !== "local") {
    const consistency =
      now.consistency === undefined
        ? "exact (the default)"
        : `${now.consistency}${declaration.fields.consistency === undefined ? inheritedFrom(earlier, "consistency") : ""}`;
    errors.push({
      path: `${declaration.path}.syncEvery`,
      message: `syncEvery applies only with consistency: local, and this limit's consistency is ${consistency}`,
    });
  }
  return errors;
}

/**
 * checkBases is false when the tenant's plan is unknown: its limits might override plan
 * limits we cannot see, and "required" errors would then be noise on top of the real one.
 */
export function checkSlots(slots: readonly LimitSlot[], checkBases: boolean): DocumentError[] {
  const errors: DocumentError[] = [];
  for (const slot of slots) {
    const base = slot.chain[0];
    if (!base) continue;
    if (checkBases) errors.push(...checkBase(base));
    slot.chain.forEach((_, index) =>
      errors.push(
        ...checkStep(slot.chain, index),
        ...checkExactness(slot.chain, index),
        ...checkLogSize(slot.chain, index),
        ...checkLocal(slot.chain, index),
        ...checkPenalty(slot.chain, index),
        ...checkCalendar(slot.chain, index),
      ),
    );
  }
  return errors;
}
