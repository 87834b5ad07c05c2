import "server-only";
import { z } from "zod";
import { overrideSchema } from "@/lib/check/published/part-schema";
import { SNAPSHOT_FORMAT, type Snapshot } from "@/lib/check/published/snapshot-types";
import type { ListMatcher } from "@/lib/check/lists/list-matcher";
import type { VerdictMemo } from "@/lib/check/lists/verdict-memo";
import { applyOverrides, overridesAt } from "@/lib/check/published/apply-overrides";
import type {
  PublishedConfig,
  PublishedKey,
  PublishedOverride,
  PublishedServiceToken,
} from "@/lib/check/published/published";

// One published version as the check path reads it: the config plus Maps kept up to date
// change by change (config-state.ts), so a check does a few Map lookups and nothing else.

export interface KeyRecord extends Omit<PublishedKey, "previous"> {
  /** the key's id (counter identity of `by: key` limits); null if the snapshot lacks it */
  id: string | null;
  /** set on a rotated-out secret's record: the end of its grace (epoch ms), which its
   * expiresAt also never passes, so the usual expiry test ends it (resolve.ts) */
  retiredAt?: number;
}

export interface ConfigIndex {
  version: number;
  /** the published snapshot with the overrides in force applied (config-state.ts keeps it) */
  snapshot: Snapshot;
  /** the next override start or end (epoch ms), or null */
  nextChangeAt: number | null;
  /** SHA-256 hex of an API key secret -> key */
  keysByHash: ReadonlyMap<string, KeyRecord>;
  /** "<tenant slug> <key name>" -> key */
  keysByName: ReadonlyMap<string, KeyRecord>;
  /** SHA-256 hex of a service token -> token */
  serviceTokens: ReadonlyMap<string, PublishedServiceToken>;
  /** the allow and deny lists, read once per version that changes them (lib/check/lists/) */
  lists: IndexLists;
}

export interface IndexLists {
  /** the operator's global lists, or null when they hold nothing */
  global: ListMatcher | null;
  /** tenant slug -> its lists, for the tenants that have some */
  tenants: ReadonlyMap<string, ListMatcher>;
  /** verdicts met recently, per tenant and subject (verdict-memo.ts) */
  verdicts: VerdictMemo;
}

export const keyNameId = (tenantSlug: string, keyName: string): string => `${tenantSlug} ${keyName}`;

/** A version's snapshot as it stands at `now`: the overrides in force then, applied. */
export interface SnapshotAt {
  snapshot: Snapshot;
  /** the overrides applied, oldest start first */
  active: PublishedOverride[];
  /** the next override start or end (epoch ms), or null */
  nextChangeAt: number | null;
}

/**
 * The one way overrides are applied to a published version: the check path's index and the
 * admin API's state and simulator both go through it, so they cannot disagree.
 */
export function snapshotAt(config: PublishedConfig, now: number): SnapshotAt {
  const { active, nextChangeAt } = overridesAt(config.overrides ?? [], now);
  return { snapshot: applyOverrides(config.snapshot, active), active, nextChangeAt };
}

// The published JSON is our own output, but it crosses a process boundary through Redis:
// check the outline (a half-written or foreign value must not replace a good version).
const publishedSchema = z.looseObject({
  version: z.number().int().positive(),
  snapshot: z.looseObject({
    format: z.literal(SNAPSHOT_FORMAT),
    version: z.number().int(),
    routes: z.array(z.string()),
    tenants: z.record(z.string(), z.looseObject({ id: z.string(), slug: z.string(), status: z.string() })),
    tenantSlugById: z.record(z.string(), z.string()),
  }),
  keys: z.record(z.string(), z.looseObject({ tenant: z.string(), name: z.string(), revoked: z.boolean() })),
  serviceTokens: z.record(z.string(), z.looseObject({ id: z.string() })),
  overrides: z.array(overrideSchema).optional(),
});

/** Parses a published snapshot (JSON text or a PostgreSQL row's value); throws when malformed. */
export function parsePublished(input: unknown): PublishedConfig {
  const value: unknown = typeof input === "string" ? JSON.parse(input) : input;
  publishedSchema.parse(value);
  return value as PublishedConfig;
}
