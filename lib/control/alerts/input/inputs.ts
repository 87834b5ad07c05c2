import { z } from "zod";
import { NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";
import { safeText } from "@/lib/shared/safe-text";
import { urlProblem } from "@/lib/control/alerts/guard/url-guard";

// The boundary of alert configuration (admin API and dashboard): every field checked here,
// errors name it. Shared with the OpenAPI document.

const name = z.string().regex(NAME_PATTERN, { error: NAME_RULE });

export const ALERT_KINDS = ["utilization", "rejection_rate", "degraded"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ENDPOINT_FORMATS = ["json", "slack"] as const;
/** Longest "for" a rule may wait: per-second usage data is read back that far. */
export const MAX_FOR_SECONDS = 3_600;

export const CreateEndpointInput = z.strictObject({
  name,
  url: safeText(z.string().max(2_048, { error: "must be at most 2048 characters" })).superRefine((v, ctx) => {
    const problem = urlProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  format: z.enum(ENDPOINT_FORMATS, { error: "must be json or slack" }).default("json"),
  /** operators only: may reach private, loopback and link-local addresses */
  allowPrivate: z.boolean().default(false),
});
export type CreateEndpointInput = z.input<typeof CreateEndpointInput>;

export const CreateRuleInput = z
  .strictObject({
    name,
    kind: z.enum(ALERT_KINDS, { error: "must be utilization, rejection_rate or degraded" }),
    endpoint: name,
    /** utilization: the limit's name */
    limit: name.optional(),
    /** narrow to one API key (by name) */
    key: name.optional(),
    /** narrow to one route pattern, as the usage data records it */
    route: safeText(z.string().min(1).max(200, { error: "must be at most 200 characters" })).optional(),
    /** percent: utilization of the limit, or rejected share of checks */
    thresholdPct: z
      .number({ error: "must be a number" })
      .min(0, { error: "must be at least 0" })
      .max(1_000, { error: "must be at most 1000" })
      .optional(),
    forSeconds: z
      .number({ error: "must be a number of seconds" })
      .int({ error: "must be a whole number of seconds" })
      .min(1, { error: "must be at least 1" })
      .max(MAX_FOR_SECONDS, { error: `must be at most ${MAX_FOR_SECONDS}` })
      .default(60),
  })
  .superRefine((v, ctx) => {
    if (v.kind === "utilization" && v.limit === undefined)
      ctx.addIssue({ code: "custom", path: ["limit"], message: "is required for a utilization rule" });
    if (v.kind !== "degraded" && v.thresholdPct === undefined)
      ctx.addIssue({ code: "custom", path: ["thresholdPct"], message: `is required for a ${v.kind} rule` });
    if (v.kind === "rejection_rate" && (v.thresholdPct ?? 0) > 100)
      ctx.addIssue({ code: "custom", path: ["thresholdPct"], message: "must be at most 100 for a rate" });
  });
export type CreateRuleInput = z.input<typeof CreateRuleInput>;

export const DeliveryQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
