import "server-only";
import type { CheckShape } from "@/lib/check/shape-types";
import type { CheckParts } from "@/lib/check/check-parts";
import type { LimitArgs, LimitSpec } from "@/lib/check/limiter/types";
import type { LocalCode, LocalRule } from "@/lib/check/limiter/local/local-algorithms";
import { localCodeOf, localCounterKey } from "@/lib/check/limiter/local/local-keys";
import { scaled } from "@/lib/shared/limit-exactness";

// How a check with local limits splits: which of its limits are counted in memory (with
// their counter's key and numbers), and which still go to Redis in the one script call.
// What depends only on the limits is worked out once per check shape (check-shapes.ts);
// the counters' keys depend on the check's key and subject, so they come from its parts.

interface LocalSlotShape {
  /** the limit's place in the check (and in the answer) */
  index: number;
  code: LocalCode;
  tenantId: string;
  rule: LocalRule;
  syncEveryMs: number;
  shadow: boolean;
}

export interface LocalShape {
  slots: LocalSlotShape[];
  /** the exact limits' places in the check, and their script arguments */
  exactIndex: number[];
  exactRules: LimitArgs[];
  /** the shape's rules it was made from: a calendar period's end replaces them (calendar-rules.ts) */
  rules: LimitArgs[];
}

export interface LocalSlot extends LocalSlotShape {
  key: string;
}

export interface LocalPlan {
  slots: LocalSlot[];
  exactIndex: number[];
  exactSpecs: LimitSpec[];
  exactKeys: string[];
  exactRules: LimitArgs[];
}

export function shapeLocal(shape: CheckShape): LocalShape {
  const { limits, specs } = shape.resolved.matched;
  const local: LocalShape = { slots: [], exactIndex: [], exactRules: [], rules: shape.rules };
  limits.forEach((limit, index) => {
    const spec = specs[index] as LimitSpec;
    const code = localCodeOf(spec.rule.algorithm);
    if (limit.local === undefined || code === undefined) {
      // validation keeps other algorithms exact; a snapshot that disagrees is counted exactly
      local.exactIndex.push(index);
      local.exactRules.push(shape.rules[index] as LimitArgs);
      return;
    }
    const { L, W, B } = scaled(spec.rule);
    local.slots.push({
      index,
      code,
      tenantId: spec.tenantId,
      rule: { code, L, W, B },
      syncEveryMs: limit.local.syncEveryMs,
      shadow: spec.rule.mode === "shadow",
    });
  });
  return local;
}

/** The plan of one check: its parts name the counters of its key and subject. */
export function planLocal(local: LocalShape, parts: Pick<CheckParts, "keys" | "specs">): LocalPlan {
  return {
    slots: local.slots.map((slot) => ({
      ...slot,
      key: localCounterKey(parts.specs[slot.index] as LimitSpec, slot.code),
    })),
    exactIndex: local.exactIndex,
    exactSpecs: local.exactIndex.map((i) => parts.specs[i] as LimitSpec),
    exactKeys: local.exactIndex.map((i) => parts.keys[i] as string),
    exactRules: local.exactRules,
  };
}
