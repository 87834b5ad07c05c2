import "server-only";
import { codecFor } from "@/lib/limiter/algorithms";
import { entryOf } from "@/lib/limiter/keys";
import type { LimitArgs, LimitSpec, RuleInts } from "@/lib/limiter/types";

// A limit's script arguments: its rule's integers and its entry in the owner's state (see
// keys.ts). One array per rule and entry, shared by every check that meets the limit, so a
// micro-batch sends each limit's arguments once whatever the owners of its checks.
const withEntry = new WeakMap<RuleInts, Map<string, LimitArgs>>();

export function specArgs(spec: LimitSpec): LimitArgs {
  const ints = codecFor(spec.rule.algorithm).args(spec.rule);
  const entry = entryOf(spec);
  let byEntry = withEntry.get(ints);
  if (!byEntry) withEntry.set(ints, (byEntry = new Map()));
  let args = byEntry.get(entry);
  if (!args) byEntry.set(entry, (args = [...ints, entry]));
  return args;
}
