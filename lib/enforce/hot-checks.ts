import "server-only";
import type { CheckParts, CheckShape } from "@/lib/enforce/check-shapes";
import type { KeyRecord } from "@/lib/enforce/config-index";
import type { Resolved, Target } from "@/lib/enforce/resolve";
import type { CheckInput } from "@/lib/enforce/types";

// Whole checks seen in this config version, in front of the shapes (check-shapes.ts): the
// same apiKey (or tenant and key) and raw route come back over and over, and a hit skips
// the key lookup, route matching, the shape's cache key and the key's part of the answer
// (issue 20: the shapes alone made the identical check 10% and a denial 23% dearer). The
// subject is not part of the cache key: an entry holds the key's part, and a subject is
// filled in per check only where a limit counts per subject (subjectParts). What can change
// within a version is checked on every hit: the key's expiry, and the caller's tenants.
// Cleared with every new version (and an entry of another version is never used). Bounded
// in entries. Admitted on the second sighting only: in a realistic mix most checks are
// one-off (a route id, a key) and inserting each, then evicting, was the costliest function
// of the mix's profile (bench mix); a check seen before goes in, a one-off costs a Set
// lookup. The doorkeeper of first sightings is bounded too (emptied when full).

export interface HotCheck {
  /** the config version it was resolved under */
  version: number;
  shape: CheckShape;
  key: KeyRecord | null;
  /** what the check resolved to (a subject with temporary overrides builds its shape from it) */
  target: Target;
  /** the shape's resolution as this key sees it */
  resolved: Resolved;
  /** the key's part: keys, specs, answer template, deny signature up to the subject */
  base: CheckParts;
  /** read since inserted or last passed over by eviction */
  used: boolean;
}

/**
 * The cache key of a check, without its subject but with whether it has one (subject limits
 * are left out of a check without). Unambiguous: the form letter, the route (no white space
 * but its one space, never a newline), then the apiKey, or the tenant and key (slugs) last.
 */
export function hotKeyOf(input: CheckInput): string {
  const head = `${input.subject === null ? "-" : "s"}${input.route ?? ""}\n`;
  return input.apiKey !== null
    ? `a${head}${input.apiKey}`
    : `t${head}${input.tenant ?? ""}\n${input.key ?? ""}`;
}

/** read entries moved to the back per eviction at most: an eviction costs O(1) */
const MAX_PASSES = 4;

export class HotChecks {
  private readonly entries = new Map<string, HotCheck>();
  /** hot keys seen once since the doorkeeper was last emptied */
  private readonly seen = new Set<string>();

  constructor(private readonly capacity = 10_000) {
    if (capacity < 1) throw new RangeError("capacity must be >= 1");
  }

  /** The entry of this version whose key has not expired at `nowMs()`, else undefined. */
  get(hotKey: string, version: number, nowMs: () => number = Date.now): HotCheck | undefined {
    const entry = this.entries.get(hotKey);
    if (entry === undefined) return undefined;
    const expiresAt = entry.key?.expiresAt ?? null;
    if (entry.version !== version || (expiresAt !== null && expiresAt <= nowMs())) {
      this.entries.delete(hotKey);
      return undefined;
    }
    entry.used = true;
    return entry;
  }

  /** Whether a check missed here is worth an entry: true from its second sighting. */
  admits(hotKey: string): boolean {
    if (this.seen.has(hotKey)) return true;
    if (this.seen.size >= this.capacity) this.seen.clear();
    this.seen.add(hotKey);
    return false;
  }

  remember(hotKey: string, entry: HotCheck): void {
    if (!this.entries.has(hotKey) && this.entries.size >= this.capacity) this.evictOne();
    this.entries.set(hotKey, entry);
  }

  clear(): void {
    this.entries.clear();
    this.seen.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Drops the oldest entry not read since its last pass, passing over at most a few. */
  private evictOne(): void {
    for (let passes = MAX_PASSES; passes > 0; passes--) {
      const oldest = this.entries.entries().next();
      if (oldest.done) return;
      const [hotKey, entry] = oldest.value;
      this.entries.delete(hotKey);
      if (!entry.used) return;
      entry.used = false;
      this.entries.set(hotKey, entry);
    }
    const first = this.entries.keys().next();
    if (!first.done) this.entries.delete(first.value);
  }
}
