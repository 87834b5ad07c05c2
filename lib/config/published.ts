// What enforcement servers load from Redis: the compiled limits plus the credentials a
// check needs (hashes only), so a check never queries PostgreSQL.

import type { Snapshot } from "@/lib/config/compile";

export interface PublishedKey {
  tenant: string;
  name: string;
  /** epoch ms, or null for keys that do not expire */
  expiresAt: number | null;
  revoked: boolean;
}

export interface PublishedServiceToken {
  id: string;
  /** tenant slugs it may check for; null = every tenant */
  tenants: string[] | null;
}

export interface PublishedConfig {
  version: number;
  snapshot: Snapshot;
  /** SHA-256 hex of the secret -> key */
  keys: Record<string, PublishedKey>;
  /** SHA-256 hex of the token -> token */
  serviceTokens: Record<string, PublishedServiceToken>;
}
