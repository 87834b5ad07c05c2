import type { EditScope } from "@/lib/control/limit-tree/limit-hierarchy";

// Links into the limit editor. Tenant-owned levels live under the tenant; plan and global
// route limits under /plans (operators).

export function editorHref(slug: string, scope: EditScope, name: string | null, override = false): string {
  const q = new URLSearchParams();
  if (name) q.set("name", name);
  if (override) q.set("override", "1");
  switch (scope.kind) {
    case "tenant":
      q.set("at", "tenant");
      break;
    case "tenant-route":
      q.set("at", "route");
      q.set("route", scope.pattern);
      break;
    case "key":
      q.set("at", "key");
      q.set("key", scope.key);
      break;
    case "plan":
      q.set("at", "plan");
      q.set("plan", scope.plan);
      return `/plans/limits/edit?${q}`;
    case "global-route":
      q.set("at", "route");
      q.set("route", scope.pattern);
      return `/plans/limits/edit?${q}`;
  }
  return `/tenants/${slug}/limits/edit?${q}`;
}

/** Where a limit is declared, as one attribute value: rows carry it, so a save finds its own row. */
export function scopeKey(scope: EditScope): string {
  switch (scope.kind) {
    case "tenant":
      return "tenant";
    case "tenant-route":
      return `route:${scope.pattern}`;
    case "key":
      return `key:${scope.key}`;
    case "plan":
      return `plan:${scope.plan}`;
    case "global-route":
      return `global-route:${scope.pattern}`;
  }
}

/** The list after a save: which limit, where, and the version to undo. */
export function savedHref(back: string, scope: EditScope, name: string, version: number | null): string {
  const q = new URLSearchParams({ saved: name, in: scopeKey(scope) });
  if (version !== null) q.set("v", String(version));
  return `${back}?${q}`;
}
