// Database ids for what a document names by slug or name. Counters and API-key lookups use
// ids, so renaming never orphans state; the document only knows names.

import type { ConfigDocument } from "@/lib/control/config/document";

export interface IdMap {
  /** tenant slug -> tenant id */
  tenants: Readonly<Record<string, string>>;
  /**
   * tenant slug -> key name -> key id. Give every live key of the tenant, not only those
   * the document names: the snapshot then resolves any key name to its id without a query.
   */
  keys: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/**
 * Ids equal to the names: for previews (the dashboard's "effective limits" view before
 * saving) and tests, where no database ids exist yet.
 */
export function idMapFromNames(document: ConfigDocument): IdMap {
  const tenants: Record<string, string> = {};
  const keys: Record<string, Record<string, string>> = {};
  for (const tenant of document.tenants ?? []) {
    tenants[tenant.slug] = tenant.slug;
    keys[tenant.slug] = Object.fromEntries(tenant.keys.map((key) => [key.name, key.name]));
  }
  return { tenants, keys };
}
