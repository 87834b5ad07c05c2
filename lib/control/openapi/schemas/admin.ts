import { z } from "@/lib/control/openapi/zod";
import { DocumentReplaysSchema } from "@/lib/control/openapi/schemas/replay";

// Answers of /api/admin/* and /api/health. Their handlers build plain objects typed by the
// DAL's interfaces (lib/control/data/*); these schemas describe those interfaces and the contract
// test validates real answers against them.

const isoTime = z.string().openapi({ format: "date-time" });

export const CreatedTokenSchema = z
  .strictObject({ id: z.string(), token: z.string().openapi({ description: "shown only now" }) })
  .openapi("CreatedToken");

export const KeySummarySchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    createdAt: isoTime,
    expiresAt: isoTime.nullable(),
    revokedAt: isoTime.nullable(),
    lastUsedAt: isoTime.nullable(),
    previousPrefix: z
      .string()
      .nullable()
      .openapi({ description: "the prefix of the secret before the last rotation; null: never rotated" }),
    previousUntil: isoTime
      .nullable()
      .openapi({ description: "when that secret stops (or stopped) authenticating as this key" }),
  })
  .openapi("KeySummary");

export const KeyListSchema = z.strictObject({ keys: z.array(KeySummarySchema) }).openapi("KeyList");

export const CreatedKeySchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    key: z.string().openapi({ description: "the secret: shown only now, stored only as its hash" }),
    prefix: z.string(),
  })
  .openapi("CreatedKey");

export const RotatedKeySchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    key: z.string().openapi({ description: "the new secret: shown only now, stored only as its hash" }),
    prefix: z.string(),
    previousPrefix: z.string().openapi({ description: "the old secret's prefix" }),
    previousUntil: isoTime.openapi({
      description:
        "the end of the grace period: until then the old secret works too, then it answers revoked_key",
    }),
  })
  .openapi("RotatedKey");

export const RevokedKeySchema = z
  .strictObject({ name: z.string(), revoked: z.literal(true) })
  .openapi("RevokedKey");

export const LimitOverrideSchema = z
  .strictObject({
    id: z.string(),
    value: z
      .union([z.number().int().min(0), z.literal("disabled")])
      .openapi({ description: 'the limit in force: 0 blocks; "disabled": not evaluated' }),
    endsAt: isoTime,
  })
  .openapi("LimitOverride", {
    description: "the temporary override in force on the limit (docs/overrides.md)",
  });

export const SkippedLimitSchema = z.strictObject({
  name: z.string(),
  by: z.string(),
  reason: z.string(),
  override: LimitOverrideSchema.nullable().openapi({
    description: 'the "disabled" override that takes the limit out of the check, or null',
  }),
});

export const LimitStateSchema = z
  .strictObject({
    name: z.string(),
    id: z.string(),
    level: z.enum(["plan", "tenant", "key", "route"]),
    by: z.enum(["tenant", "key", "subject"]),
    route: z.string().nullable(),
    algorithm: z.string(),
    mode: z.string(),
    limit: z.number().int(),
    windowMs: z.number().int(),
    burst: z.number().int().nullable(),
    remaining: z.number().int(),
    resetMs: z.number().int(),
    wouldAllow: z.boolean(),
    retryAfterMs: z.number().int().nullable(),
    penaltyBlockMs: z.number().int().optional().openapi({
      description:
        "a penalty's block in force on this identity: ms left; absent when none (lift: POST /api/admin/penalty/lift)",
    }),
    override: LimitOverrideSchema.nullable().openapi({
      description: "the temporary override in force on this limit (`limit` is its value), or null",
    }),
  })
  .openapi("LimitState");

export const CounterStateSchema = z
  .strictObject({
    tenant: z.string(),
    key: z.string().nullable(),
    route: z.string().nullable(),
    subject: z.string().nullable(),
    configVersion: z.number().int(),
    limits: z.array(LimitStateSchema),
    skipped: z.array(SkippedLimitSchema),
  })
  .openapi("CounterState");

export const ResetResultSchema = z
  .strictObject({
    tenant: z.string(),
    limit: z.string(),
    limitIds: z.array(z.string()),
    deleted: z.number().int().min(0),
  })
  .openapi("ResetResult");

export const AuditPageSchema = z
  .strictObject({
    entries: z.array(
      z.strictObject({
        id: z.string(),
        at: isoTime,
        actor: z.strictObject({ type: z.string(), id: z.string().nullable(), label: z.string() }),
        tenant: z.string().nullable(),
        action: z.string(),
        target: z.strictObject({
          type: z.string(),
          id: z.string().nullable(),
          name: z
            .string()
            .nullable()
            .describe("the object's name (a key's, a member's e-mail...); null once it is deleted"),
        }),
        before: z.unknown(),
        after: z.unknown(),
        requestId: z.string().nullable(),
        configVersion: z.number().int().nullable(),
      }),
    ),
    nextBefore: z.string().nullable(),
  })
  .openapi("AuditPage");

export const UsageSeriesSchema = z
  .strictObject({
    tenant: z.string().nullable(),
    key: z.string().nullable(),
    route: z.string().nullable(),
    from: isoTime,
    to: isoTime,
    stepMs: z.number().int(),
    resolutionMs: z.number().int(),
    points: z.array(
      z.strictObject({
        t: isoTime,
        allowed: z.number().int(),
        rejected: z.number().int(),
        shadowRejected: z.number().int(),
        degraded: z.number().int(),
        leasesAcquired: z.number().int().openapi({ description: "leases of concurrency limits taken" }),
        leasesReleased: z
          .number()
          .int()
          .openapi({ description: "leases released before they expired (POST /api/check/release)" }),
        leasesExpired: z.number().int().openapi({
          description: "leases not released before their limit's window ran out, counted when they expired",
        }),
      }),
    ),
  })
  .openapi("UsageSeries");

export const ImportChangeSchema = z
  .strictObject({
    action: z.enum(["create", "update", "delete"]),
    target: z.enum(["plan", "route", "tenant", "key", "override", "lists"]),
    name: z.string().openapi({ description: 'a key: "<tenant>/<key name>"' }),
  })
  .openapi("ImportChange");

export const ImportedKeySchema = z
  .strictObject({
    tenant: z.string(),
    name: z.string(),
    id: z.string().optional().openapi({ description: "absent in a dry run" }),
    prefix: z.string().optional().openapi({ description: "absent in a dry run" }),
    secret: z.string().optional().openapi({
      description: "the key's secret, shown only in this answer (stored as its hash); absent in a dry run",
    }),
  })
  .openapi("ImportedKey");

const EnvoyImportSchema = z
  .strictObject({
    domain: z.string().openapi({ description: "the envoy file's domain" }),
    tenant: z.string().openapi({ description: "the tenant it was imported as" }),
    report: z
      .array(z.strictObject({ line: z.number().int(), message: z.string() }))
      .openapi({ description: "what was not carried over exactly, by line of the envoy file" }),
  })
  .openapi("EnvoyImport");

export const ImportResultSchema = z
  .strictObject({
    configVersion: z.number().int().nullable().openapi({ description: "null when nothing changed" }),
    changes: z.array(ImportChangeSchema),
    createdKeys: z.array(ImportedKeySchema).openapi({
      description: "keys the document named that did not exist, made by this import (dry run: would be made)",
    }),
    dryRun: z.boolean(),
    replay: DocumentReplaysSchema.optional().openapi({
      description: "dryRun only: the what-if replay of each changed tenant or key limit (docs/replay.md)",
    }),
    envoy: EnvoyImportSchema.optional().openapi({
      description: "format=envoy only: the tenant the envoy file became and the conversion's report",
    }),
  })
  .openapi("ImportResult");

export const HealthSchema = z
  .strictObject({
    status: z.enum(["ok", "degraded", "down"]),
    postgres: z.enum(["ok", "down"]),
    redis: z.enum(["ok", "down"]),
    configVersion: z.number().int().nullable(),
  })
  .openapi("Health");
