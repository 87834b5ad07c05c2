import "server-only";
import type { DocumentError, LimitDoc, TenantDoc } from "@/lib/control/config/document";
import { canonicalLimits, sameJson } from "@/lib/control/config/import/canonical";

// One limit set on many targets, as document edits: each target's list gets the limit
// added (or the one of its name replaced), and the errors the edited documents meet are
// told back in the request's terms: a fault of the limit itself at `limit.<field>` once
// (with the targets it concerns), a fault of one target at that target (`tenants[3]`).

export interface LimitTarget {
  /** where the request names it: tenants[3] or keys[7] (tenant: the key-level call's tenant) */
  path: string;
  /** "tenant acme" / "key backend of tenant acme" */
  label: string;
  tenantId: string;
  slug: string;
  /** for a key-level limit */
  key?: { id: string; name: string };
  /** the limit of that name there before, if any */
  before?: LimitDoc;
  /** where the limit sits in the edited document, relative to its tenant: limits[2] or keys[0].limits[1] */
  docPath: string;
}

/** The list with `limit` in the place of the one of its name, or appended. */
export function withLimit(list: readonly LimitDoc[], limit: LimitDoc): { limits: LimitDoc[]; index: number } {
  const at = list.findIndex((l) => l.name === limit.name);
  if (at < 0) return { limits: [...list, limit], index: list.length };
  return { limits: list.map((l, i) => (i === at ? limit : l)), index: at };
}

export function sameLimit(a: LimitDoc | undefined, b: LimitDoc): boolean {
  return a !== undefined && sameJson(canonicalLimits([a]), canonicalLimits([b]));
}

/** Limits a tenant declares: its own, its routes' and its keys' (what the per-tenant cap counts). */
export function tenantLimitCount(doc: TenantDoc): number {
  let count = doc.limits.length;
  for (const route of doc.routes) count += route.limits.length;
  for (const key of doc.keys) count += key.limits.length;
  return count;
}

/** Whether a path (relative to its tenant) is the limit at `docPath` or inside it. */
export function isWithin(path: string, docPath: string): boolean {
  return path === docPath || path.startsWith(`${docPath}.`) || path.startsWith(`${docPath}[`);
}

function listed(labels: readonly string[]): string {
  return labels.length <= 5
    ? labels.join(", ")
    : `${labels.slice(0, 5).join(", ")} and ${labels.length - 5} more`;
}

/**
 * Errors of the edited documents, whose tenant at index j of the validated list is
 * `docPrefix(j)`, in the request's terms. Those inside the limit are merged by field.
 */
export function requestErrors(
  errors: readonly DocumentError[],
  targetsByTenant: ReadonlyMap<string, readonly LimitTarget[]>,
  slugAt: (path: string) => { slug: string; prefix: string } | null,
  fallbackPath: (slug: string) => string,
): DocumentError[] {
  const merged = new Map<string, { path: string; message: string; labels: string[] }>();
  const own: DocumentError[] = [];
  for (const error of errors) {
    const at = slugAt(error.path);
    if (!at) {
      own.push(error);
      continue;
    }
    const inTenant = error.path.slice(at.prefix.length).replace(/^\./, "");
    const target = (targetsByTenant.get(at.slug) ?? []).find((t) => isWithin(inTenant, t.docPath));
    if (!target) {
      own.push({ path: fallbackPath(at.slug), message: `${inTenant || "tenant"}: ${error.message}` });
      continue;
    }
    const path = `limit${inTenant.slice(target.docPath.length)}`;
    const key = `${path}\u0000${error.message}`;
    const entry = merged.get(key) ?? { path, message: error.message, labels: [] };
    entry.labels.push(target.label);
    merged.set(key, entry);
  }
  const fromLimit = [...merged.values()].map(({ path, message, labels }) => ({
    path,
    message: `${message} (on ${listed(labels)})`,
  }));
  return [...fromLimit, ...own];
}
