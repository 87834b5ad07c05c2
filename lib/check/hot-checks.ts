import "server-only";
import type { CheckShape } from "@/lib/check/shape-types";
import type { KeyRecord } from "@/lib/check/config-index";
import type { Target } from "@/lib/check/resolve";
import type { CheckInput } from "@/lib/check/types";
import { HitGate } from "@/lib/check/hit-gate";
import { Generations } from "@/lib/check/generations";
import type { TenantMark } from "@/lib/check/tenant-marks";

// Whole checks seen, in front of the shapes (check-shapes.ts): the same apiKey (or tenant
// and key) and raw route come back over and over, and a hit skips the key lookup, route
// matching and the shape's lookup. The subject is not part of the cache key (its counters are
// filled in per check, checkKeys). Checked on every hit: the key's expiry and the caller's
// tenants. An entry holds its tenant's mark (tenant-marks.ts): a change to its tenant makes
// it stale, a change to another tenant leaves it in use, a global change empties the cache.
// Bounded; admitted on a check's second sighting (one-offs would churn it), and skipped while
// hits are rare (hit-gate.ts). The measurements behind each choice: docs/architecture.md,
// "Caches on the check path".

export interface HotCheck {
  /** its tenant's mark when it was resolved: stale once the tenant changed */
  mark: TenantMark;
  shape: CheckShape;
  key: KeyRecord | null;
  /** what the check resolved to (a subject with temporary overrides builds its shape from it) */
  target: Target;
  /** kept with an entry of the cache: the shape's Redis keys with the key's counters in, and
   * the key's name as JSON (null on a check that is not kept: made per check) */
  keys: string[] | null;
  keyJson: string | null;
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

/** Below half hits a lookup costs more than it saves (misses churn entries through the heap). */
const MIN_HIT_SHARE = 0.5;

export class HotChecks {
  /** two generations of half the capacity each (generations.ts) */
  private readonly entries: Generations<HotCheck>;
  /** hot keys seen once since the doorkeeper was last emptied */
  private readonly seen = new Set<string>();
  constructor(
    private readonly capacity = 10_000,
    /** null: always consulted (a cache behind another's misses, whose share no one reads) */
    private readonly gate: HitGate | null = new HitGate(MIN_HIT_SHARE),
  ) {
    if (capacity < 2) throw new RangeError("capacity must be >= 2");
    this.entries = new Generations(Math.floor(capacity / 2));
  }

  /** Whether this check should look here: hit-gate.ts, below half hits one check in eight. */
  consults(): boolean {
    return this.gate === null || this.gate.consults();
  }

  /** The entry whose tenant has not changed since and whose key has not expired at `nowMs()`. */
  get(hotKey: string, nowMs: () => number = Date.now): HotCheck | undefined {
    const entry = this.entries.get(hotKey);
    if (entry === undefined) return this.tally(undefined);
    const expiresAt = entry.key?.expiresAt ?? null;
    if (!entry.mark.current || (expiresAt !== null && expiresAt <= nowMs())) {
      this.entries.delete(hotKey);
      return this.tally(undefined);
    }
    return this.tally(entry);
  }

  private tally(entry: HotCheck | undefined): HotCheck | undefined {
    this.gate?.tally(entry !== undefined);
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
    this.entries.delete(hotKey);
    this.entries.set(hotKey, entry);
  }

  clear(): void {
    this.entries.clear();
    this.seen.clear();
    this.gate?.reset();
  }

  /** True while most checks skip the cache (consults). */
  get skippingLookups(): boolean {
    return this.gate?.skippingLookups ?? false;
  }

  get size(): number {
    return this.entries.size;
  }
}
