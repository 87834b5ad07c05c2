import "server-only";
import { z } from "zod";
import { NAME_PATTERN, NAME_RULE, MAX_LIMIT } from "@/lib/control/config/document";
import { safeText } from "@/lib/shared/safe-text";

// The input of a temporary override (docs/overrides.md), checked at the boundary: the API,
// the dashboard's form and the config document's import all parse with these.

/** How far ahead an override may end (and start): an expiry is not a place to hide a permanent change. */
export const MAX_OVERRIDE_MS = 90 * 86_400_000;
/** How many overrides one tenant may have in force or waiting at once. */
export const MAX_OVERRIDES_PER_TENANT = 100;
export const MAX_REASON_CHARS = 500;

const name = z.string().regex(NAME_PATTERN, { error: NAME_RULE });
const instant = z.iso.datetime({
  offset: true,
  error: "must be an ISO 8601 time, e.g. 2026-11-27T18:00:00Z",
});

export const OverrideValue = z.union(
  [
    z
      .number()
      .int({ error: "must be a whole number" })
      .min(0, { error: "must be 0 or more (0 blocks every check)" })
      .max(MAX_LIMIT, { error: `must be at most ${MAX_LIMIT}` }),
    z.literal("disabled"),
  ],
  { error: 'must be a whole number 0 or more, or "disabled"' },
);

export const OverrideInput = z
  .strictObject({
    tenant: name,
    /** one key of the tenant (by name); without key and subject: every check of the tenant */
    key: name.optional(),
    /** one subject (its `by: subject` limits) */
    subject: safeText(
      z.string().min(1, { error: "must not be empty" }).max(256, { error: "must be at most 256 characters" }),
    ).optional(),
    /** the limit's name */
    limit: name,
    value: OverrideValue,
    /** default: now */
    startsAt: instant.optional(),
    endsAt: instant,
    reason: safeText(
      z
        .string()
        .trim()
        .min(1, { error: "is required: say why" })
        .max(MAX_REASON_CHARS, { error: `must be at most ${MAX_REASON_CHARS} characters` }),
    ),
  })
  .superRefine((input, ctx) => {
    if (input.key !== undefined && input.subject !== undefined)
      ctx.addIssue({ code: "custom", path: ["subject"], message: "give a key or a subject, not both" });
  });
export type OverrideInput = z.infer<typeof OverrideInput>;

/** The checked window, or the field and why it is refused. */
export function overrideWindow(
  input: Pick<OverrideInput, "startsAt" | "endsAt">,
  now: number,
): { startsAt: number; endsAt: number } | { field: "startsAt" | "endsAt"; message: string } {
  const startsAt = input.startsAt === undefined ? now : Date.parse(input.startsAt);
  const endsAt = Date.parse(input.endsAt);
  // a minute of slack for clocks and forms: an override does not start in the past
  if (startsAt < now - 60_000) return { field: "startsAt", message: "must not be in the past" };
  if (startsAt > now + MAX_OVERRIDE_MS) return { field: "startsAt", message: "must be within 90 days" };
  if (endsAt <= Math.max(startsAt, now))
    return { field: "endsAt", message: "must be after the start (and now)" };
  if (endsAt > now + MAX_OVERRIDE_MS) return { field: "endsAt", message: "must be within 90 days from now" };
  return { startsAt: Math.max(startsAt, now - 60_000), endsAt };
}

export const OverrideListQuery = z.strictObject({
  tenant: name.optional(),
  /** active: in force now; upcoming: not yet started; current (default): both */
  state: z
    .enum(["active", "upcoming", "current"], { error: "must be active, upcoming or current" })
    .optional(),
});
export type OverrideListQuery = z.infer<typeof OverrideListQuery>;

export const OverrideId = z.string().regex(/^[a-z0-9]{1,40}$/, { error: "must be an override id" });
