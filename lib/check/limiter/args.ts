import "server-only";
import type { LimitRule } from "@/lib/shared/limit-types";
import type { RuleInts } from "@/lib/check/limiter/types";
import { ruleInts } from "@/lib/check/limiter/rule-layout";
import { exactnessProblem, scaled } from "@/lib/shared/limit-exactness";

export { exactnessProblem };

// Shared by the algorithm files: checks a rule's numbers and builds its six script integers.
// The script does exact integer math in doubles, so its products must stay below 2^53.
// The result is kept per rule object (rules of a config snapshot are reused by every check)
// together with the fields it was built from, so a rule changed in place is built afresh.

interface Built {
  algorithm: LimitRule["algorithm"];
  limit: number;
  windowMs: number;
  burst: number | null;
  action: LimitRule["action"];
  maxDelayMs: number | null;
  mode: LimitRule["mode"];
  args: RuleInts;
}

const built = new WeakMap<LimitRule, Built>();

function same(b: Built, rule: LimitRule): boolean {
  return (
    b.algorithm === rule.algorithm &&
    b.limit === rule.limit &&
    b.windowMs === rule.windowMs &&
    b.burst === rule.burst &&
    b.action === rule.action &&
    b.maxDelayMs === rule.maxDelayMs &&
    b.mode === rule.mode
  );
}

export function limitArgs(rule: LimitRule): RuleInts {
  const cached = built.get(rule);
  if (cached && same(cached, rule)) return cached.args;
  const problem = exactnessProblem(rule);
  if (problem) throw new RangeError(problem);
  const { L, W, B, delay } = scaled(rule);
  const { algorithm, limit, windowMs, burst, action, maxDelayMs, mode } = rule;
  const args = ruleInts({ algorithm, L, W, B, shadow: mode === "shadow", maxDelay: delay });
  built.set(rule, { algorithm, limit, windowMs, burst, action, maxDelayMs, mode, args });
  return args;
}
