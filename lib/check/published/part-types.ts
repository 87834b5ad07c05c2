// A published configuration in parts, so a change publishes, stores and applies only what it
// changed (docs/architecture-config.md). Three kinds, each a field of one Redis hash and a
// row of ConfigPart per version it changed in:
//   "g"          the global part: global route patterns and service tokens
//   "t:<slug>"   one tenant: its compiled limits (keys with limits of their own only) and
//                its temporary overrides
//   "k:<hash>"   one API key (SHA-256 of its secret): its tenant, name, id, expiry, revocation
// A bare key (no limits of its own) lives only in its key part, so creating or revoking one
// stores and ships a few hundred bytes, whatever the tenant's size.

import type { CompiledTenant } from "@/lib/check/published/snapshot-types";
import type { PublishedLists } from "@/lib/check/lists/list-types";
import type { PublishedKey, PublishedOverride, PublishedServiceToken } from "@/lib/check/published/published";

export interface GlobalPart {
  kind: "global";
  routes: string[];
  serviceTokens: Record<string, PublishedServiceToken>;
  /** the global allow and deny lists; absent: none */
  lists?: PublishedLists;
}

/** A compiled tenant as its part carries it: `limits`, when it is keyDefault without the
 * `by: key` limits (as the compiler makes it), is left out and made again on arrival. */
export type PartTenant = Omit<CompiledTenant, "limits"> & { limits?: CompiledTenant["limits"] };

export interface TenantPart {
  kind: "tenant";
  /** keys and keyNameById hold only the keys with limits of their own */
  tenant: PartTenant;
  overrides: PublishedOverride[];
}

export interface KeyPart extends PublishedKey {
  kind: "key";
  /** the key's database id (counter identity of `by: key` limits) */
  id: string;
}

export type ConfigPart = GlobalPart | TenantPart | KeyPart;

/** A part as changed by a version: null when the version removed it. */
export type PartChange = readonly [scope: string, part: ConfigPart | null];

export const GLOBAL_SCOPE = "g";
export const tenantScope = (slug: string): string => `t:${slug}`;
export const keyScope = (hash: string): string => `k:${hash}`;

/** The tenant a scope belongs to, or null for the global part. */
export function tenantOfPart(part: ConfigPart): string | null {
  if (part.kind === "global") return null;
  return part.kind === "tenant" ? part.tenant.slug : part.tenant;
}
