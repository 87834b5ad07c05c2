// One limit as written in a document. The same object shape serves a base limit (every
// rule field it needs is present) and an override (only what it changes); which one a
// limit is depends on where it sits, so "required" is checked after inheritance is known
// (check-limits.ts). fullLimitSchema is the stand-alone form for forms creating a new limit.

import { z } from "zod";

import { ACTIONS, ALGORITHMS, CONSISTENCY, LIMIT_BY, MODES, STORE_FAILURE } from "@/lib/shared/limit-types";

import {
  countSchema,
  durationMsSchema,
  durationSchema,
  nameSchema,
  periodSchema,
  routePatternSchema,
  syncEverySchema,
  timeZoneSchema,
} from "./field-schemas";
import { penaltySchema } from "./penalty-schema";

const oneOf = (values: readonly string[]): string => `must be one of ${values.join(", ")}`;

const limitShape = {
  name: nameSchema,
  by: z.enum(LIMIT_BY, { error: oneOf(LIMIT_BY) }).optional(),
  route: routePatternSchema.optional(),
  algorithm: z.enum(ALGORITHMS, { error: oneOf(ALGORITHMS) }).optional(),
  limit: countSchema.optional(),
  window: durationSchema.optional(),
  windowMs: durationMsSchema.optional(),
  /** algorithm calendar: the calendar period counted (its window) */
  period: periodSchema.optional(),
  /** algorithm calendar: the zone its periods are in; left out: the tenant's, else UTC */
  timeZone: timeZoneSchema.optional(),
  burst: countSchema.optional(),
  action: z.enum(ACTIONS, { error: oneOf(ACTIONS) }).optional(),
  maxDelay: durationSchema.optional(),
  maxDelayMs: durationMsSchema.optional(),
  mode: z.enum(MODES, { error: oneOf(MODES) }).optional(),
  onStoreFailure: z.enum(STORE_FAILURE, { error: oneOf(STORE_FAILURE) }).optional(),
  consistency: z.enum(CONSISTENCY, { error: oneOf(CONSISTENCY) }).optional(),
  syncEvery: syncEverySchema.optional(),
  penalty: penaltySchema.optional(),
  disabled: z.boolean().optional(),
};

/** The field names a limit may carry, in the order exports write them. */
export const LIMIT_FIELD_NAMES = Object.keys(limitShape) as (keyof typeof limitShape)[];

interface TwoSpellings {
  window?: unknown;
  windowMs?: unknown;
  maxDelay?: unknown;
  maxDelayMs?: unknown;
}

// A duration has two spellings; giving both would leave the reader guessing which counts.
function oneSpellingEach(limit: TwoSpellings, ctx: z.RefinementCtx): void {
  if (limit.window !== undefined && limit.windowMs !== undefined) {
    ctx.addIssue({ code: "custom", path: ["windowMs"], message: "give either window or windowMs, not both" });
  }
  if (limit.maxDelay !== undefined && limit.maxDelayMs !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["maxDelayMs"],
      message: "give either maxDelay or maxDelayMs, not both",
    });
  }
}

/** A limit inside a document: base or override (see check-limits.ts for the difference). */
export const limitSchema = z.strictObject(limitShape).superRefine(oneSpellingEach);

/** A new limit with nothing to inherit from: the rule fields are all required. */
export const fullLimitSchema = z
  .strictObject({
    ...limitShape,
    by: z.enum(LIMIT_BY, { error: oneOf(LIMIT_BY) }),
    algorithm: z.enum(ALGORITHMS, { error: oneOf(ALGORITHMS) }),
    limit: countSchema,
  })
  .superRefine((limit, ctx) => {
    oneSpellingEach(limit, ctx);
    if (limit.algorithm === "calendar") {
      if (limit.period === undefined) ctx.addIssue({ code: "custom", path: ["period"], message: "required" });
    } else if (limit.window === undefined && limit.windowMs === undefined) {
      ctx.addIssue({ code: "custom", path: ["window"], message: "required" });
    }
    if (limit.disabled === true) {
      ctx.addIssue({ code: "custom", path: ["disabled"], message: "only an override can be disabled" });
    }
  });

export type LimitDoc = z.output<typeof limitSchema>;
export type LimitDocInput = z.input<typeof limitSchema>;
export type FullLimitDoc = z.output<typeof fullLimitSchema>;
