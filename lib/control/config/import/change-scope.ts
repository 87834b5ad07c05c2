import "server-only";

// Which configuration a change may touch: some tenants, or everything. The data layer's
// locks (lib/control/data/change-locks.ts) serialize changes by it.

export type ChangeScope = "global" | { tenants: readonly string[] };

/** The slugs a scope covers; null for the global scope (which covers everything). */
export function scopedSlugs(scope: ChangeScope): ReadonlySet<string> | null {
  return scope === "global" ? null : new Set(scope.tenants);
}
