import "server-only";
import { codecFor } from "@/lib/check/limiter/algorithms";
import { entryOf } from "@/lib/check/limiter/keys";
import { ruleWithEntry } from "@/lib/check/limiter/rule-layout";
import { entryWithPenalty } from "@/lib/check/limiter/penalty-args";
import type { LimitArgs, LimitSpec, RuleInts } from "@/lib/check/limiter/types";

// A limit's script arguments: its rule's integers and its entry in the owner's state (see
// keys.ts). One array per distinct VALUE, shared by every check that meets such a limit, so
// a micro-batch (evaluate-many.ts, which numbers rules by array) sends each once whatever
// the owners of its checks: tenants on one plan each have their own rule objects with the
// same values, and every rule sent costs Redis a Lua table (docs/architecture.md).
const withEntry = new WeakMap<RuleInts, Map<string, LimitArgs>>();

// Bounded by the configuration's distinct rules; emptied when full (a later array of the
// same values is as good: only a batch's own arrays are compared).
const MAX_DISTINCT = 20_000;
const byValue = new Map<string, LimitArgs>();

function interned(ints: RuleInts, entry: string): LimitArgs {
  const text = `${ints.join(" ")} ${entry}`;
  let args = byValue.get(text);
  if (!args) {
    if (byValue.size >= MAX_DISTINCT) byValue.clear();
    byValue.set(text, (args = ruleWithEntry(ints, entry)));
  }
  return args;
}

/** `nowMs` (default: the wall clock) matters to calendar rules only (calendar.ts). */
export function specArgs(spec: LimitSpec, nowMs?: number): LimitArgs {
  const ints = codecFor(spec.rule.algorithm).args(spec.rule, nowMs);
  const entry = entryWithPenalty(entryOf(spec), spec.rule.penalty);
  let byEntry = withEntry.get(ints);
  if (!byEntry) withEntry.set(ints, (byEntry = new Map()));
  let args = byEntry.get(entry);
  if (!args) byEntry.set(entry, (args = interned(ints, entry)));
  return args;
}
