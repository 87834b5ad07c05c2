import "server-only";
import type { HotResolution } from "@/lib/enforce/hot-resolutions";
import type { LimitArgs, LimitSpec } from "@/lib/limiter/types";
import type { LocalRule } from "@/lib/limiter/local/local-algorithms";
import { localCodeOf, localCounterKey } from "@/lib/limiter/local/local-keys";
import { scaled } from "@/lib/shared/limit-exactness";

// How a check with local limits splits: which of its limits are counted in memory (with
// their counter's key and numbers), and which still go to Redis in the one script call
// (their keys and arguments, taken from the hot resolution, which prepared them all).
// Made once per hot resolution (so once per distinct check and config version).

export interface LocalSlot {
  /** the limit's place in the check (and in the answer) */
  index: number;
  key: string;
  tenantId: string;
  rule: LocalRule;
  syncEveryMs: number;
  shadow: boolean;
}

export interface LocalPlan {
  slots: LocalSlot[];
  /** the exact limits' places in the check, and what the script needs of them */
  exactIndex: number[];
  exactSpecs: LimitSpec[];
  exactKeys: string[];
  exactRules: LimitArgs[];
}

export function planLocal(entry: HotResolution): LocalPlan {
  const { limits, specs } = entry.resolved.matched;
  const plan: LocalPlan = { slots: [], exactIndex: [], exactSpecs: [], exactKeys: [], exactRules: [] };
  limits.forEach((limit, index) => {
    const spec = specs[index] as LimitSpec;
    const code = localCodeOf(spec.rule.algorithm);
    if (limit.local === undefined || code === undefined) {
      // validation keeps other algorithms exact; a snapshot that disagrees is counted exactly
      plan.exactIndex.push(index);
      plan.exactSpecs.push(spec);
      plan.exactKeys.push(entry.keys[index] as string);
      plan.exactRules.push(entry.rules[index] as LimitArgs);
      return;
    }
    const { L, W, B } = scaled(spec.rule);
    plan.slots.push({
      index,
      key: localCounterKey(spec, code),
      tenantId: spec.tenantId,
      rule: { code, L, W, B },
      syncEveryMs: limit.local.syncEveryMs,
      shadow: spec.rule.mode === "shadow",
    });
  });
  return plan;
}
