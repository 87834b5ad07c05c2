import "server-only";
import { z } from "zod";
import { NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";

// What a request may ask of new API keys (one, or a list), checked before any write.

export const CreateKeyInput = z.strictObject({
  name: z.string().regex(NAME_PATTERN, { error: NAME_RULE }),
  expiresAt: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" }).optional(),
});
export type CreateKeyInput = z.infer<typeof CreateKeyInput>;

export interface NewKeyInput {
  name: string;
  expiresAt?: string;
}

/** The most keys one request may create (docs/api.md). */
export const MAX_KEYS_PER_REQUEST = 1000;

/** Zod refinement for a list of keys: a name given twice is refused at its second place. */
export function refineDistinctNames(keys: readonly NewKeyInput[], ctx: z.RefinementCtx): void {
  const seen = new Map<string, number>();
  keys.forEach((key, i) => {
    const first = seen.get(key.name);
    if (first === undefined) seen.set(key.name, i);
    else
      ctx.addIssue({
        code: "custom",
        path: [i, "name"],
        message: `${key.name} is already listed at keys[${first}]`,
      });
  });
}

/** The longest grace period of a key rotation: 7 days (docs/api.md#key-rotation). */
export const MAX_GRACE_SECONDS = 7 * 24 * 3600;

export const RotateKeyInput = z.strictObject({
  graceSeconds: z
    .number({ error: "must be a number of seconds" })
    .int({ error: "must be a whole number of seconds" })
    .min(0, { error: "must be 0 or more" })
    .max(MAX_GRACE_SECONDS, { error: `must be at most ${MAX_GRACE_SECONDS} (7 days)` }),
});
export type RotateKeyInput = z.infer<typeof RotateKeyInput>;
