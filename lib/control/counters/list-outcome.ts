import "server-only";
import type { CompiledTenant, Snapshot } from "@/lib/control/config/compile";
import { parseIp } from "@/lib/check/lists/ip-text";
import { ListMatcher, listVerdict } from "@/lib/check/lists/list-matcher";
import { hasEntries, type PublishedLists } from "@/lib/check/lists/list-types";

// What the allow and deny lists (docs/algorithms.md, "Allow and deny lists") answer a
// subject, for the simulator and the limit tree: the check path's own matcher and verdict
// (lib/check/lists/), plus which list matched, so the operator sees why. Matchers are read
// once per published lists object, as the check servers read them once per version.

export interface ListOutcome {
  /** deny: answered deny_list at once, nothing counted; allow: the limits it skips left out */
  verdict: "deny" | "allow";
  /** the lists that hold the subject: the operator's global one, the tenant's, or both */
  from: ("global" | "tenant")[];
  /** allow: the names of the limits skipped, or null: every limit; deny: null */
  skips: readonly string[] | null;
}

const matchers = new WeakMap<PublishedLists, ListMatcher>();

function matcherOf(lists: PublishedLists | undefined): ListMatcher | null {
  if (!hasEntries(lists)) return null;
  let matcher = matchers.get(lists);
  if (matcher === undefined) {
    matcher = new ListMatcher(lists);
    matchers.set(lists, matcher);
  }
  return matcher;
}

/** Whether this matcher holds the subject on either side. */
function holds(matcher: ListMatcher | null, subject: string, deny: boolean): boolean {
  if (matcher === null) return false;
  const ip = parseIp(subject);
  return deny ? matcher.denies(subject, ip) : matcher.skips(subject, ip, undefined) !== undefined;
}

/** The lists' answer to `subject` (as sent, before subnet keying), or null: on no list. */
export function listOutcome(snapshot: Snapshot, tenant: CompiledTenant, subject: string): ListOutcome | null {
  const [global, own] = [matcherOf(snapshot.lists), matcherOf(tenant.lists)];
  if (global === null && own === null) return null;
  const verdict = listVerdict(global, own, subject);
  if (verdict === undefined) return null;
  const deny = verdict.deny;
  const from: ListOutcome["from"] = [];
  if (holds(global, subject, deny)) from.push("global");
  if (holds(own, subject, deny)) from.push("tenant");
  return { verdict: deny ? "deny" : "allow", from, skips: verdict.deny ? null : verdict.skip };
}

/** Whether an allow outcome skips a limit of this name. */
export function skipsLimit(outcome: ListOutcome | null, name: string): boolean {
  return outcome?.verdict === "allow" && (outcome.skips === null || outcome.skips.includes(name));
}
