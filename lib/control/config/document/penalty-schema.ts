// The `penalty` field of a limit (docs/algorithms.md, Penalties): `{ block: "5m" }`, or
// growing with repeated violations `{ block: "5m", grow: 2, max: "1h", window: "1d" }`.
// Read here into milliseconds; the stored and compiled form is lib/shared's Penalty.

import { z } from "zod";

import { MAX_PENALTY_GROW, type Penalty } from "@/lib/shared/limit-types";
import { parseDuration } from "@/lib/shared/duration";

import { durationSchema } from "./field-schemas";

const GROW_HINT = `must be a number from 1 to ${MAX_PENALTY_GROW} with at most two decimals, such as 2 or 1.5`;

const growSchema = z
  .number({ error: GROW_HINT })
  .min(1, { error: GROW_HINT })
  .max(MAX_PENALTY_GROW, { error: GROW_HINT })
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-9, { error: GROW_HINT });

/** A penalty as written in a document. */
export const penaltySchema = z
  .strictObject({
    block: durationSchema,
    grow: growSchema.optional(),
    max: durationSchema.optional(),
    window: durationSchema.optional(),
  })
  .superRefine((penalty, ctx) => {
    const grows = penalty.grow !== undefined && penalty.grow > 1;
    if (!grows) {
      for (const field of ["max", "window"] as const) {
        if (penalty[field] !== undefined)
          ctx.addIssue({ code: "custom", path: [field], message: `${field} applies only with grow above 1` });
      }
      return;
    }
    for (const field of ["max", "window"] as const) {
      if (penalty[field] === undefined)
        ctx.addIssue({ code: "custom", path: [field], message: "required when grow is above 1" });
    }
    const block = parseDuration(penalty.block);
    const max = penalty.max === undefined ? null : parseDuration(penalty.max);
    if (block !== null && max !== null && max < block)
      ctx.addIssue({ code: "custom", path: ["max"], message: "must be at least block" });
  });

export type PenaltyDoc = z.output<typeof penaltySchema>;

/** The penalty in milliseconds; a validated penalty's durations always parse. */
export function penaltyOf(doc: PenaltyDoc): Penalty {
  const blockMs = parseDuration(doc.block) ?? 0;
  const grow = doc.grow ?? 1;
  if (grow <= 1) return { blockMs, grow: 1, maxMs: blockMs, windowMs: 0 };
  return {
    blockMs,
    grow,
    maxMs: parseDuration(doc.max ?? 0) ?? blockMs,
    windowMs: parseDuration(doc.window ?? 0) ?? 0,
  };
}

/** The document form of a stored penalty, durations as a person writes them. */
export function penaltyDocOf(penalty: Penalty, format: (ms: number) => string): PenaltyDoc {
  if (penalty.grow <= 1) return { block: format(penalty.blockMs) };
  return {
    block: format(penalty.blockMs),
    grow: penalty.grow,
    max: format(penalty.maxMs),
    window: format(penalty.windowMs),
  };
}

/** The stored column's form, read back (zod at the database boundary). */
export const storedPenaltySchema = z.strictObject({
  blockMs: z.number().int().positive(),
  grow: z.number().min(1).max(MAX_PENALTY_GROW),
  maxMs: z.number().int().positive(),
  windowMs: z.number().int().nonnegative(),
});
