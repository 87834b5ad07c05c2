// The leaf fields of the document, each with the message a person sees when it is wrong.
// Messages are written to follow the path: "tenants[0].limits[1].window: must be ...".

import { z } from "zod";
import { NAME_PATTERN, NAME_RULE } from "@/lib/shared/config-terms";

import { parseDuration } from "@/lib/shared/duration";
import { parseRoutePattern } from "@/lib/check/routes/route-pattern";
import { safeText } from "@/lib/shared/safe-text";
import { MAX_SYNC_EVERY_MS, MIN_SYNC_EVERY_MS } from "@/lib/shared/limit-types";
import { CALENDAR_PERIODS, isTimeZone } from "@/lib/shared/calendar";

/** Plans, tenants (slug), limits and keys are all named like this (docs/configuration.md). */
export { NAME_PATTERN, NAME_RULE };

export const MAX_LIMIT = 1_000_000_000;
export const MAX_WINDOW_MS = 365 * 86_400_000;

const DURATION_HINT =
  'must be a duration > 0 such as "250ms", "1s", "5m", "1h" or "1d" (one unit, whole numbers)';
const DURATION_MS_HINT = `must be an integer of milliseconds from 1 to ${MAX_WINDOW_MS} (365d)`;

export const nameSchema = z.string().regex(NAME_PATTERN, { error: NAME_RULE });

const COUNT_HINT = "must be a whole number from 1 to 1,000,000,000";

// The hint also for a value of the wrong type ("abc" typed in the editor, a string in
// JSON): zod's own "expected number, received string" names no range.
export const countSchema = z
  .number({
    // quoted in YAML or JSON: say it was text, the easiest slip to miss
    error: (issue) =>
      typeof issue.input === "string" ? `${COUNT_HINT}, not text "${issue.input}"` : COUNT_HINT,
  })
  .int({ error: COUNT_HINT })
  .min(1, { error: "must be at least 1" })
  .max(MAX_LIMIT, { error: "must be at most 1,000,000,000" });

/** `window: 1s` style: a duration string, or a bare number taken as milliseconds. */
export const durationSchema = z
  .union([z.string(), z.number()], { error: DURATION_HINT })
  .superRefine((value, ctx) => {
    const ms = parseDuration(value);
    if (ms === null) ctx.addIssue({ code: "custom", message: DURATION_HINT });
    else if (ms <= 0) ctx.addIssue({ code: "custom", message: "must be a duration > 0" });
    else if (ms > MAX_WINDOW_MS) ctx.addIssue({ code: "custom", message: "must be at most 365d" });
  });

/** `windowMs: 1000` style. */
export const durationMsSchema = z
  .number()
  .int({ error: DURATION_MS_HINT })
  .min(1, { error: "must be a duration > 0" })
  .max(MAX_WINDOW_MS, { error: "must be at most 365d (31536000000 ms)" });

const SYNC_EVERY_HINT = `must be a duration from ${MIN_SYNC_EVERY_MS}ms to ${MAX_SYNC_EVERY_MS / 1000}s such as "100ms" or "1s"`;

/** `syncEvery: 100ms`: how often a local limit's server syncs its counts with Redis. */
export const syncEverySchema = z
  .union([z.string(), z.number()], { error: SYNC_EVERY_HINT })
  .superRefine((value, ctx) => {
    const ms = parseDuration(value);
    if (ms === null || ms < MIN_SYNC_EVERY_MS || ms > MAX_SYNC_EVERY_MS) {
      ctx.addIssue({ code: "custom", message: SYNC_EVERY_HINT });
    }
  });

export const routePatternSchema = safeText(z.string()).superRefine((value, ctx) => {
  const parsed = parseRoutePattern(value);
  if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.message });
});

/** Human display name of a tenant: free text, but not empty and not a novel. */
export const displayNameSchema = safeText(
  z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(200, { error: "must be at most 200 characters" }),
);

/** A calendar quota's time zone: an IANA name this server knows (docs/algorithms.md, calendar). */
export const timeZoneSchema = z
  .string({ error: 'must be an IANA time zone name such as "UTC" or "Europe/Berlin"' })
  .refine(isTimeZone, {
    error: 'must be an IANA time zone name such as "UTC" or "Europe/Berlin" (not an offset)',
  });

/** A calendar quota's period. */
export const periodSchema = z.enum(CALENDAR_PERIODS, {
  error: `must be one of ${CALENDAR_PERIODS.join(", ")}`,
});
