import { z } from "@/lib/control/openapi/zod";
import { LIMIT_FIELD_NAMES, type LimitFieldName } from "@/lib/control/config/document";
import {
  CounterStateSchema,
  ImportChangeSchema,
  ImportedKeySchema,
  LimitStateSchema,
  SkippedLimitSchema,
} from "@/lib/control/openapi/schemas/admin";

// Answers of the ops tools: the request simulator, identifier lookup, configuration history
// and rollback (lib/control/counters/simulate-check.ts, identifier-lookup.ts, config-history.ts,
// config-rollback.ts; type-checks.ts keeps them equal to the DAL's types).

const isoTime = z.string().openapi({ format: "date-time" });
const LEVEL = z.enum(["plan", "tenant", "key", "route"]);

export const SimulationSchema = z
  .strictObject({
    tenant: z.string(),
    key: z.string().nullable(),
    route: z.string().nullable(),
    subject: z.string().nullable(),
    cost: z.number().int(),
    configVersion: z.number().int(),
    allowed: z.boolean(),
    reason: z.string().openapi({
      description: "ok, rate_limited, cost_exceeds_capacity, penalty, deny_list or suspended_tenant",
    }),
    retryAfterMs: z.number().int().nullable(),
    waitMs: z.number().int(),
    limits: z.array(
      // a new object, not an extension: the document then inlines it instead of allOf-ing a
      // strict LimitState, which no answer with more fields could satisfy
      z.strictObject({
        ...LimitStateSchema.shape,
        provenance: z
          .array(
            z.strictObject({
              level: LEVEL,
              source: z.string(),
              fields: z.array(z.enum(LIMIT_FIELD_NAMES as [LimitFieldName, ...LimitFieldName[]])),
            }),
          )
          .openapi({
            description: "How the limit got its values, base first (plan, route, tenant, key override).",
          }),
        allowsThisCheck: z.boolean(),
        deciding: z.boolean(),
        penaltyBlockEnds: isoTime.optional().openapi({
          description: "when the penalty's block running on this identity ends; absent when none runs",
        }),
      }),
    ),
    skipped: z.array(SkippedLimitSchema),
    list: z
      .strictObject({
        verdict: z.enum(["deny", "allow"]),
        from: z.array(z.enum(["global", "tenant"])),
        skips: z.array(z.string()).readonly().nullable().openapi({
          description: "allow: the names of the limits skipped, null: every limit; deny: null",
        }),
      })
      .nullable()
      .openapi({
        description:
          "what the allow and deny lists answer the subject (deny: denied before any limit, limits empty); null: on no list",
      }),
  })
  .openapi("Simulation");

const LookupDecisionSchema = z.strictObject({
  at: isoTime,
  key: z.string().nullable(),
  route: z.string().nullable(),
  subject: z.string().nullable(),
  outcome: z.string(),
  reason: z.string(),
  deniedBy: z.string().nullable(),
});

export const LookupSchema = z
  .strictObject({
    state: CounterStateSchema,
    decisions: z.array(LookupDecisionSchema),
    denials: z.array(LookupDecisionSchema),
    canReset: z.boolean(),
    canResetImposed: z.boolean(),
  })
  .openapi("Lookup");

export const DecisionLogSchema = z
  .strictObject({
    tenant: z.string(),
    entries: z.array(
      LookupDecisionSchema.extend({
        outcome: z.enum(["allowed", "rejected", "shadow_rejected", "degraded"]),
      }),
    ),
    matched: z.number().int(),
    sampled: z.number().int(),
    bound: z.strictObject({
      decisionsPerTenant: z.number().int(),
      denialsPerTenant: z.number().int(),
      perFlushPerFront: z.number().int(),
      idleExpiryHours: z.number(),
    }),
  })
  .openapi("DecisionLog");

const HealthRowSchema = z.strictObject({
  at: isoTime,
  fronts: z.number().int(),
  p50Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
  requests: z.number(),
  allowed: z.number(),
  rejected: z.number(),
  degraded: z.number(),
  causes: z.record(z.string(), z.number()),
  errors: z.number(),
  refused: z.number(),
  lateStarved: z.number(),
  lateWaited: z.number(),
});

export const CheckHealthSchema = z
  .strictObject({ minutes: z.array(HealthRowSchema), total: HealthRowSchema, spanMinutes: z.number().int() })
  .openapi("CheckHealth");

export const HistoryPageSchema = z
  .strictObject({
    versions: z.array(
      z.strictObject({
        version: z.number().int(),
        at: isoTime,
        actors: z.array(z.string()),
        changes: z.array(
          z.strictObject({
            id: z.string().openapi({ description: "the audit entry's id" }),
            action: z.string(),
            target: z.strictObject({ type: z.string(), id: z.string().nullable() }),
            tenant: z.string().nullable(),
            before: z.unknown(),
            after: z.unknown(),
            revertible: z
              .boolean()
              .openapi({ description: "a change of configuration the dashboard can revert on its own" }),
          }),
        ),
        restorable: z.boolean(),
        rollbackable: z.boolean().openapi({
          description: "restorable, and a later version changed what a rollback restores",
        }),
      }),
    ),
    nextBefore: z.number().int().nullable(),
  })
  .openapi("HistoryPage");

export const RollbackResultSchema = z
  .strictObject({
    configVersion: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "the new version; null when nothing changed" }),
    changes: z.array(ImportChangeSchema),
    createdKeys: z.array(ImportedKeySchema).openapi({
      description: "keys of the restored configuration that no longer existed, made again with new secrets",
    }),
    restored: z.number().int(),
    dryRun: z.boolean(),
    overridesEnded: z.array(z.string()).openapi({ description: "overrides made since, ended" }),
    alertRulesDisabled: z.array(z.string()).openapi({ description: "alert rules made since, disabled" }),
    alertRulesEnabled: z
      .array(z.string())
      .openapi({ description: "alert rules disabled since, enabled again" }),
  })
  .openapi("RollbackResult");
