import { createHash } from "node:crypto";

// How Envoy's model lands on Sluice's (docs/envoy.md, docs/envoy-migration.md): a domain is a
// tenant, and a request descriptor is one check whose route is a path built from its entries
// and whose subject is the same path (the per-value counter of a limit on a key without a
// value). `sluice import-envoy` writes route patterns by the same rules, so what it imports is
// what this server's checks hit.

export interface DescriptorEntry {
  key: string;
  value: string;
}

/** The longest subject a check accepts; a longer path is sent as its SHA-256. */
export const SUBJECT_MAX = 256;

/** The method a descriptor's check sends; imported patterns match any method ("* /..."). */
export const DESCRIPTOR_METHOD = "POST";

const SLUG = /^[a-z0-9-]{1,63}$/;

/**
 * A domain's tenant slug: lower case, every character outside [a-z0-9-] becomes "-"
 * (`mongo_cps` -> `mongo-cps`); null when it is longer than 63 or holds no letter or digit.
 */
export function domainSlug(domain: string): string | null {
  const slug = domain.toLowerCase().replace(/[^a-z0-9-]/g, "-");
  return SLUG.test(slug) && /[a-z0-9]/.test(slug) ? slug : null;
}

/**
 * One path segment for a key or a value: percent-encoded (with `*` too), so that a `/`, a
 * space or a `*` inside a value stays inside its segment and one path names one chain.
 */
export function pathSegment(text: string): string {
  return encodeURIComponent(text).replace(/\*/g, "%2A");
}

/** The path of a descriptor: `/key1/value1/key2/value2`, each part encoded. */
export function descriptorPath(entries: readonly DescriptorEntry[]): string {
  let path = "";
  for (const entry of entries) path += `/${pathSegment(entry.key)}/${pathSegment(entry.value)}`;
  return path;
}

/** The subject of a descriptor's check: its path, or the path's SHA-256 when too long. */
export function descriptorSubject(path: string): string {
  return path.length <= SUBJECT_MAX ? path : `sha256:${createHash("sha256").update(path).digest("hex")}`;
}
