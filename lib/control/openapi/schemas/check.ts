import { batchSchema, checkSchema } from "@/lib/check/body-schema";
import { releaseSchema } from "@/lib/check/lease/release-schema";
import { ALGORITHMS, LIMIT_BY, MODES } from "@/lib/shared/limit-types";
import { z } from "@/lib/control/openapi/zod";
import { ErrorBodySchema } from "@/lib/control/openapi/schemas/errors";
import { DEGRADED_CAUSES } from "@/lib/check/types";

// The check endpoints. Requests are the very schemas lib/check/body-schema.ts validates
// with. Answers are rendered from templates on the hot path (lib/enforce/render), so they
// have no zod schema there: these describe lib/check/types.ts, and the contract test
// proves real answers match.

export const CheckRequestSchema = checkSchema.meta({
  id: "CheckRequest",
  description: "Give apiKey, or tenant (and optionally key); not both.",
});

export const BatchRequestSchema = batchSchema.meta({
  id: "BatchRequest",
  description: "1..1000 checks, each validated and answered on its own.",
});

const REASONS = [
  "ok",
  "rate_limited",
  "cost_exceeds_capacity",
  "penalty",
  "unknown_key",
  "revoked_key",
  "expired_key",
  "suspended_tenant",
  "deny_list",
  "unknown_tenant",
  "store_unavailable",
] as const;

const nullableInt = z.number().int().nullable();

export const LimitReportSchema = z
  .strictObject({
    name: z.string(),
    level: z.enum(["plan", "tenant", "key", "route"]),
    by: z.enum(LIMIT_BY),
    algorithm: z.enum(ALGORITHMS),
    limit: z.number().int(),
    windowMs: z.number().int(),
    remaining: nullableInt.openapi({ description: "null when Redis was not reached (degraded)" }),
    resetMs: nullableInt,
    allowed: z.boolean(),
    mode: z.enum(MODES),
    override: z
      .strictObject({ id: z.string(), endsAt: z.string() })
      .optional()
      .openapi({ description: "present while a temporary override applies to the limit" }),
  })
  .openapi("LimitReport");

export const DecisionSchema = z
  .strictObject({
    allowed: z.boolean(),
    reason: z.enum(REASONS),
    tenant: z.string().nullable(),
    key: z.string().nullable(),
    route: z.string().nullable().openapi({ description: "the matched route pattern" }),
    limit: nullableInt,
    remaining: nullableInt,
    resetMs: nullableInt,
    retryAfterMs: nullableInt.openapi({ description: "when denied: the earliest time to try again" }),
    waitMs: z.number().int().openapi({ description: "for delay limits: wait this long, then serve" }),
    limits: z.array(LimitReportSchema),
    degraded: z.boolean(),
    cause: z.enum(DEGRADED_CAUSES).optional().openapi({
      description:
        "present when degraded: why Redis' counters did not decide (redis_timeout, connection_lost, breaker_open, local_overload: this server stalled, limiter_error: an unreadable reply)",
    }),
    configVersion: z.number().int(),
    checkId: z.string().optional().openapi({
      description:
        "present when the check asked for it (adjustable) and Redis counted it: the id for POST /api/check/adjust",
    }),
    lease: z.string().optional().openapi({
      description:
        "an admitted check with concurrency limits (not a dry run): the lease it holds; release it with POST /api/check/release when the request ends",
    }),
  })
  .openapi("Decision", { description: "Always 200: a denial is a decision, not an error." });

export const ReleaseRequestSchema = releaseSchema.meta({
  id: "ReleaseRequest",
  description: 'One lease, { "lease": "..." }, or up to 1000, { "leases": [...] }.',
});

export const ReleaseAnswerSchema = z
  .union([
    z.strictObject({ released: z.boolean() }),
    z.strictObject({
      results: z.array(z.union([z.strictObject({ released: z.boolean() }), ErrorBodySchema])),
    }),
  ])
  .openapi("ReleaseAnswer", {
    description: "released: false when the lease was released before or has expired (idempotent).",
  });

export const BatchAnswerSchema = z
  .strictObject({
    results: z.array(z.union([DecisionSchema, ErrorBodySchema])).openapi({
      description: "In request order: each check's decision, or its own error.",
    }),
  })
  .openapi("BatchAnswer");

/**
 * The RateLimit header fields in the tenant's flavour (lib/check/headers.ts, docs/api.md
 * "Header flavours"): draft-11 by default, or draft-7, draft-6, legacy, legacy-epoch.
 */
const SINGLE = "in the single-valued flavours: of the binding limit only";
export const RATE_LIMIT_HEADERS = {
  "RateLimit-Policy": {
    description:
      'draft-11: per enforce limit evaluated, `"name";q=<quota>;w=<window s>`; draft-7 and draft-6: `<quota>;w=<window s>` of the binding limit. Absent when no limit was evaluated, and in the legacy flavours.',
    schema: {
      type: "string",
      pattern: '^("[a-z0-9-]+";q=\\d+;w=\\d+(, "[a-z0-9-]+";q=\\d+;w=\\d+)*|\\d+;w=\\d+)$',
    },
  },
  RateLimit: {
    description:
      'draft-11: per enforce limit evaluated, `"name";r=<remaining>;t=<reset s>`; draft-7: `limit=<quota>, remaining=<n>, reset=<s>` of the binding limit. Absent when no limit was evaluated, and in the other flavours.',
    schema: {
      type: "string",
      pattern:
        '^("[a-z0-9-]+";r=\\d+;t=\\d+(, "[a-z0-9-]+";r=\\d+;t=\\d+)*|limit=\\d+, remaining=\\d+, reset=\\d+)$',
    },
  },
  "RateLimit-Limit": {
    description: `draft-6: the quota, ${SINGLE}.`,
    schema: { type: "string", pattern: "^\\d+$" },
  },
  "RateLimit-Remaining": {
    description: `draft-6: what is left of it, ${SINGLE}.`,
    schema: { type: "string", pattern: "^\\d+$" },
  },
  "RateLimit-Reset": {
    description: `draft-6: seconds until it resets (rounded up), ${SINGLE}.`,
    schema: { type: "string", pattern: "^\\d+$" },
  },
  "X-RateLimit-Limit": {
    description: `legacy and legacy-epoch: the quota, ${SINGLE}.`,
    schema: { type: "string", pattern: "^\\d+$" },
  },
  "X-RateLimit-Remaining": {
    description: `legacy and legacy-epoch: what is left of it, ${SINGLE}.`,
    schema: { type: "string", pattern: "^\\d+$" },
  },
  "X-RateLimit-Reset": {
    description: `legacy: seconds until it resets (rounded up); legacy-epoch: the Unix time in seconds it resets at (rounded up), ${SINGLE}.`,
    schema: { type: "string", pattern: "^\\d+$" },
  },
  "X-RateLimit-Used": {
    description: `legacy and legacy-epoch: the quota less what is left, ${SINGLE}.`,
    schema: { type: "string", pattern: "^\\d+$" },
  },
  "Retry-After": {
    description: "Seconds, when the check is denied with a retry time (every flavour).",
    schema: { type: "string", pattern: "^\\d+$" },
  },
} as const;
