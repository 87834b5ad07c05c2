// What enforcement servers load from Redis: the compiled limits plus the credentials a
// check needs (hashes only), so a check never queries PostgreSQL.

import type { Snapshot } from "@/lib/check/published/snapshot-types";

export interface PublishedKey {
  tenant: string;
  name: string;
  /** epoch ms, or null for keys that do not expire */
  expiresAt: number | null;
  revoked: boolean;
  /** the secret before the last rotation: its hash authenticates as this key until `until`
   * (epoch ms), then answers revoked_key; absent when the key was never rotated */
  previous?: PreviousSecret;
}

export interface PreviousSecret {
  /** SHA-256 hex of the old secret */
  hash: string;
  /** epoch ms: the end of the grace period */
  until: number;
}

export interface PublishedServiceToken {
  id: string;
  /** tenant slugs it may check for; null = every tenant */
  tenants: string[] | null;
}

/** A temporary override as servers hold it; they apply it between its times (docs/overrides.md). */
export interface PublishedOverride {
  id: string;
  tenant: string;
  /** a key name: only that key's checks; null with subject null: every check of the tenant */
  key: string | null;
  /** a subject: only checks with that subject (limits counted `by: subject`) */
  subject: string | null;
  /** the limit's name */
  limit: string;
  /** the new limit (0 blocks), or null: the limit is disabled */
  value: number | null;
  /** epoch ms */
  startsAt: number;
  /** epoch ms (ended early: when it was ended) */
  endsAt: number;
}

export interface PublishedConfig {
  version: number;
  snapshot: Snapshot;
  /** SHA-256 hex of the secret -> key */
  keys: Record<string, PublishedKey>;
  /** SHA-256 hex of the token -> token */
  serviceTokens: Record<string, PublishedServiceToken>;
  /** temporary overrides not yet ended when the version was compiled (absent before they existed) */
  overrides?: PublishedOverride[];
}
