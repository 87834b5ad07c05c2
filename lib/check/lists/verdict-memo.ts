import { listVerdict, type ListMatcher, type ListVerdict } from "@/lib/check/lists/list-matcher";

// The lists' verdict per tenant and subject, remembered. Meeting a subject with lists costs
// parsing it as an address, two map lookups per side and a binary search over the ranges:
// at 100,000 entries that made a check with a subject a fifth slower (bench phases (ln),
// (lm)). A client sends many checks with one subject (its address, its user), so most
// verdicts are asked again soon.
//
// An entry holds the matchers it was read from and counts only while both are still the
// ones in force: a version that changes either list builds a new matcher, and the old
// verdicts stop counting without a sweep. Two generations bound the memory whatever
// subjects a tenant sends: when the young one is full it becomes the old one and the
// previous old one goes; a hit in the old one moves the entry back to the young. A flood of
// new subjects therefore costs the flooder its own lookups and evicts others' entries at
// worst, which then cost what every check cost before.

interface Remembered {
  global: ListMatcher | null;
  tenant: ListMatcher | null;
  verdict: ListVerdict;
}

/** Entries per generation: at most twice this many are held (about 2 MB at 60 bytes a subject). */
export const VERDICT_GENERATION = 8_192;

export class VerdictMemo {
  private young = new Map<string, Remembered>();
  private old = new Map<string, Remembered>();

  constructor(private readonly generation: number = VERDICT_GENERATION) {
    if (generation < 1) throw new RangeError("generation must be >= 1");
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
    let hit = this.young.get(id);
    if (hit === undefined) {
      hit = this.old.get(id);
      if (hit !== undefined && hit.global === global && hit.tenant === tenant) this.keep(id, hit);
    }
    if (hit !== undefined && hit.global === global && hit.tenant === tenant) return hit.verdict;
    const verdict = listVerdict(global, tenant, subject);
    this.keep(id, { global, tenant, verdict });
    return verdict;
  }

  /** Entries held, both generations (tests). */
  get size(): number {
    return this.young.size + this.old.size;
  }

  private keep(id: string, entry: Remembered): void {
    if (this.young.size >= this.generation && !this.young.has(id)) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(id, entry);
  }
}
