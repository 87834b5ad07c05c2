import { z } from "zod";
import { isSafeText, SAFE_TEXT_RULE } from "@/lib/shared/safe-text";
import { MAX_HELD } from "@/lib/check/adjust/adjust-terms";

// The body of POST /api/check/adjust (docs/api.md, "Adjusting a check"), validated at the
// boundary; every error names its field. Exported for the OpenAPI document.

export const MAX_CHECK_ID = 8_192;

export const adjustSchema = z.strictObject(
  {
    checkId: z
      .string({ error: "must be a string (the checkId of a check's answer)" })
      .min(1, { error: "must not be empty" })
      .max(MAX_CHECK_ID, { error: `must be at most ${MAX_CHECK_ID} characters` }),
    amount: z
      .number({ error: `must be an integer -${MAX_HELD}..${MAX_HELD}, not 0` })
      .int({ error: `must be an integer -${MAX_HELD}..${MAX_HELD}, not 0` })
      .min(-MAX_HELD, { error: `must be an integer -${MAX_HELD}..${MAX_HELD}, not 0` })
      .max(MAX_HELD, { error: `must be an integer -${MAX_HELD}..${MAX_HELD}, not 0` })
      .refine((n) => n !== 0, { error: "must not be 0 (> 0 charges, < 0 refunds)" }),
    idempotencyKey: z
      .string({ error: "must be a string" })
      .min(1, { error: "must be 1..128 characters" })
      .max(128, { error: "must be 1..128 characters" })
      .refine(isSafeText, { error: SAFE_TEXT_RULE })
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? "is not a field of an adjustment" : "must be a JSON object",
  },
);

export type AdjustBody = z.infer<typeof adjustSchema>;

export type ParsedAdjust = { ok: true; value: AdjustBody } | { ok: false; path: string; message: string };

export function parseAdjust(input: unknown): ParsedAdjust {
  const result = adjustSchema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const keys = issue?.code === "unrecognized_keys" ? issue.keys : [];
  const path = [...(issue?.path ?? []), ...(keys.length > 0 ? [keys[0]] : [])].map(String).join(".");
  return { ok: false, path, message: issue?.message ?? "is not a valid adjustment" };
}
