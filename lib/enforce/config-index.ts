import "server-only";
import { z } from "zod";
import {
  SNAPSHOT_FORMAT,
  applyOverrides,
  overridesAt,
  type CompiledTenant,
  type Snapshot,
} from "@/lib/config/compile";
import type {
  PublishedConfig,
  PublishedKey,
  PublishedOverride,
  PublishedServiceToken,
} from "@/lib/config/published";

// One published version as the check path reads it: the config plus Maps built once per
// version, so a check does a few Map lookups and nothing else.

export interface KeyRecord extends PublishedKey {
  /** the key's id (counter identity of `by: key` limits); null if the snapshot lacks it */
  id: string | null;
}

export interface ConfigIndex {
  version: number;
  /** the published snapshot with the overrides in force when the index was built */
  snapshot: Snapshot;
  /** what it was built from: rebuilt from it at the next override start or end */
  published: PublishedConfig;
  /** the next override start or end (epoch ms), or null */
  nextChangeAt: number | null;
  /** SHA-256 hex of an API key secret -> key */
  keysByHash: ReadonlyMap<string, KeyRecord>;
  /** "<tenant slug> <key name>" -> key */
  keysByName: ReadonlyMap<string, KeyRecord>;
  /** SHA-256 hex of a service token -> token */
  serviceTokens: ReadonlyMap<string, PublishedServiceToken>;
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

/** The index of a version as it stands at `now` (temporary overrides in force applied). */
export function buildIndex(config: PublishedConfig, now: number = Date.now()): ConfigIndex {
  const keysByHash = new Map<string, KeyRecord>();
  const keysByName = new Map<string, KeyRecord>();
  for (const [hash, key] of Object.entries(config.keys)) {
    const tenant: CompiledTenant | undefined = config.snapshot.tenants[key.tenant];
    const record: KeyRecord = { ...key, id: tenant?.keys[key.name]?.id ?? null };
    keysByHash.set(hash, record);
    keysByName.set(keyNameId(key.tenant, key.name), record);
  }
  const { snapshot, nextChangeAt } = snapshotAt(config, now);
  return {
    version: config.version,
    snapshot,
    published: config,
    nextChangeAt,
    keysByHash,
    keysByName,
    serviceTokens: new Map(Object.entries(config.serviceTokens)),
  };
}

/** Before any version is loaded: nothing is known, every tenant and key is unknown. */
export function emptyIndex(): ConfigIndex {
  return buildIndex({
    version: 0,
    snapshot: { format: SNAPSHOT_FORMAT, version: 0, routes: [], tenants: {}, tenantSlugById: {} },
    keys: {},
    serviceTokens: {},
  });
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
  overrides: z
    .array(
      z.looseObject({
        id: z.string(),
        tenant: z.string(),
        key: z.string().nullable(),
        subject: z.string().nullable(),
        limit: z.string(),
        value: z.number().int().min(0).nullable(),
        startsAt: z.number(),
        endsAt: z.number(),
      }),
    )
    .optional(),
});

/** Parses a published snapshot (JSON text or a PostgreSQL row's value); throws when malformed. */
export function parsePublished(input: unknown): PublishedConfig {
  const value: unknown = typeof input === "string" ? JSON.parse(input) : input;
  publishedSchema.parse(value);
  return value as PublishedConfig;
}
