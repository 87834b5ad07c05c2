import { z } from "@/lib/control/openapi/zod";
import { ACTIONS, ALGORITHMS, LIMIT_BY } from "@/lib/shared/limit-types";

// Answers of the what-if replay (POST /api/admin/replay, and PUT /api/admin/config?dryRun=true's
// `replay`), describing lib/control/replay/types.ts and lib/control/replay/document-replays.ts.

const counts = {
  checks: z.number().int(),
  currentRejected: z.number().int(),
  proposedRejected: z.number().int(),
};

export const ReplayRuleSchema = z
  .strictObject({
    algorithm: z.enum(ALGORITHMS),
    limit: z.number().int(),
    windowMs: z.number().int(),
    burst: z.number().int().nullable(),
    action: z.enum(ACTIONS),
    maxDelayMs: z.number().int().nullable(),
  })
  .openapi("ReplayRule");

export const ReplayResultSchema = z
  .strictObject({
    from: z.number().int().openapi({ description: "epoch ms, start of the first minute" }),
    to: z.number().int().openapi({ description: "epoch ms, exclusive" }),
    stepMs: z.number().int(),
    source: z.enum(["keys", "subjects"]).openapi({
      description: "keys: per-second counts per key and route; subjects: the bounded per-subject series",
    }),
    points: z.array(z.strictObject({ t: z.number().int(), ...counts })),
    totals: z.strictObject(counts),
    top: z.array(z.strictObject({ kind: z.enum(["key", "subject", "route"]), name: z.string(), ...counts })),
    bounds: z.strictObject({
      truncated: z.boolean().openapi({ description: "a cap cut the replay short" }),
      fieldsRead: z.number().int(),
      series: z.number().int(),
      seriesLeftOut: z.number().int(),
      checksReplayed: z.number().int(),
      unattributed: z.number().int(),
    }),
    caveats: z.array(z.string()).openapi({ description: "what this replay could not know" }),
  })
  .openapi("ReplayResult");

export const DocumentReplaysSchema = z
  .strictObject({
    replays: z.array(
      z.strictObject({
        tenant: z.string(),
        key: z.string().nullable(),
        limit: z.string(),
        route: z.string().nullable(),
        by: z.enum(LIMIT_BY),
        current: ReplayRuleSchema.nullable(),
        proposed: ReplayRuleSchema,
        result: ReplayResultSchema,
      }),
    ),
    leftOut: z.number().int().openapi({ description: "changed limits past the first 5, not replayed" }),
  })
  .openapi("DocumentReplays");
