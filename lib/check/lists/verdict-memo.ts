import { Generations } from "@/lib/check/generations";
import { listVerdict, type ListMatcher, type ListVerdict } from "@/lib/check/lists/list-matcher";

// The lists' verdict per tenant and subject, remembered. Meeting a subject with lists costs
// parsing it as an address, two map lookups per side and a binary search over the ranges:
// at 100,000 entries that made a check with a subject a fifth slower (bench phases (ln),
// (lm)). A client sends many checks with one subject (its address, its user), so most
// verdicts are asked again soon.
//
// An entry holds the matchers it was read from and counts only while both are still the
// ones in force: a version that changes either list builds a new matcher, and the old
// verdicts stop counting without a sweep. Two generations (generations.ts) bound the memory
// whatever subjects a tenant sends: a flood of new subjects costs the flooder its own
// lookups and evicts others' entries at worst, which then cost what every check cost before.

interface Remembered {
  global: ListMatcher | null;
  tenant: ListMatcher | null;
  verdict: ListVerdict;
}

/** Entries per generation: at most twice this many are held (about 2 MB at 60 bytes a subject). */
export const VERDICT_GENERATION = 8_192;

export class VerdictMemo {
  private readonly entries: Generations<Remembered>;

  constructor(generation: number = VERDICT_GENERATION) {
    this.entries = new Generations(generation);
  }

  /** listVerdict(global, tenant, subject), remembered under the tenant's slug and the subject. */
  verdict(
    global: ListMatcher | null,
    tenant: ListMatcher | null,
    tenantSlug: string,
    subject: string,
  ): ListVerdict {
    // a slug never holds a line feed (NAME_PATTERN), so the first one ends it
    const id = `${tenantSlug}\n${subject}`;
    const hit = this.entries.get(id);
    if (hit !== undefined && hit.global === global && hit.tenant === tenant) return hit.verdict;
    const verdict = listVerdict(global, tenant, subject);
    this.entries.set(id, { global, tenant, verdict });
    return verdict;
  }

  /** Entries held, both generations (tests). */
  get size(): number {
    return this.entries.size;
  }
}
