import "server-only";
import type { ConfigDocument } from "@/lib/control/config/document";
import { scopedSlugs, type ChangeScope } from "@/lib/control/config/import/change-scope";

// The locks an import takes (change-locks.ts), read from the raw input before it is
// validated: a document of tenants only, without pruning, locks just those tenants; plans,
// global routes, pruning or any other shape lock everything.

function slugsOf(input: unknown): string[] | null {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return null;
  const entries = Object.entries(input);
  if (entries.length !== 1 || entries[0]?.[0] !== "tenants") return null;
  const tenants: unknown = entries[0][1];
  if (!Array.isArray(tenants)) return null;
  const slugs: string[] = [];
  for (const tenant of tenants) {
    const slug: unknown =
      typeof tenant === "object" && tenant !== null ? (tenant as { slug?: unknown }).slug : null;
    if (typeof slug !== "string") return null;
    slugs.push(slug);
  }
  return slugs;
}

export function importScope(input: unknown, prune: boolean): ChangeScope {
  const slugs = prune ? null : slugsOf(input);
  return slugs === null ? "global" : { tenants: slugs };
}

/** A guard: the validated document must touch nothing the locks taken do not cover. */
export function outsideScope(document: ConfigDocument, scope: ChangeScope): void {
  const slugs = scopedSlugs(scope);
  if (slugs === null) return;
  const escaped =
    document.plans !== undefined ||
    document.routes !== undefined ||
    document.lists !== undefined ||
    (document.tenants ?? []).some((tenant) => !slugs.has(tenant.slug));
  if (escaped) throw new Error("import touches configuration outside the locks it took");
}
