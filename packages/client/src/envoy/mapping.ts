// How envoyproxy/ratelimit's model lands on Sluice's (docs/envoy-migration.md): a domain is a
// tenant, a descriptor chain is a route path built from its entries, and a check names that
// path as its route and its subject. The importer writes route patterns with these rules and
// the gRPC ShouldRateLimit server builds checks with them, so the two always meet.
import { createHash } from "node:crypto";

/** One entry of a request's descriptor, as Envoy sends it. */
export interface DescriptorEntry {
  key: string;
  value: string;
}

/** The longest subject a check accepts; a longer path is sent as its SHA-256. */
export const SUBJECT_MAX = 256;

/** The method a descriptor's check sends; imported patterns match any method. */
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
  return entries.map((entry) => `/${pathSegment(entry.key)}/${pathSegment(entry.value)}`).join("");
}

/**
 * What a check sends for one descriptor: the route `POST /key1/value1/...` and the same
 * path as its subject (the per-value counter of a key without a value), or the path's
 * SHA-256 in hex when the path is longer than a subject may be.
 */
export function descriptorCheck(entries: readonly DescriptorEntry[]): { route: string; subject: string } {
  const path = descriptorPath(entries);
  return { route: `${DESCRIPTOR_METHOD} ${path}`, subject: descriptorSubject(path) };
}

/** The subject of a descriptor's check: its path, or the path's SHA-256 in hex when too long. */
export function descriptorSubject(path: string): string {
  return path.length <= SUBJECT_MAX ? path : `sha256:${createHash("sha256").update(path).digest("hex")}`;
}

/** envoy's units as Sluice windows; its fixed windows are aligned to the epoch, as ours are. */
export const UNIT_WINDOWS: Readonly<Record<string, string>> = {
  second: "1s",
  minute: "1m",
  hour: "1h",
  day: "1d",
  week: "7d",
  month: "30d",
  year: "365d",
};
