"use server";

import { z } from "zod";
import { NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";
import { ConflictError } from "@/lib/control/errors/errors";
import { OverrideId, OverrideInput } from "@/lib/control/overrides/override-input";
import { createOverride, endOverride } from "@/lib/control/data/overrides";
import { parseDuration } from "@/lib/shared/duration";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";
import type { FormOutcome } from "@/components/forms/simple-form";
import { EVERY_CHECK } from "@/components/overrides/every-check";

// The dashboard's override form speaks in durations from now ("starts in 0", "lasts 1h"):
// no time zone to guess. The DAL checks the rest exactly as for the API.

// Fields left empty are not sent at all: each is optional here and the DAL's checks (or
// this refine) name what is missing.
const duration = (optional: boolean) =>
  z
    .string()
    .max(20)
    .optional()
    .refine((text) => (optional && (text ?? "").trim() === "") || (parseDuration(text ?? "") ?? 0) > 0, {
      error: 'must be a duration such as "30m", "1h" or "2d"',
    });

const OverrideForm = z.strictObject({
  tenant: z.string().regex(NAME_PATTERN, { error: NAME_RULE }),
  limit: z.string().regex(NAME_PATTERN, { error: "pick a limit" }),
  target: z.string().max(100).optional(),
  subject: z.string().max(300).optional(),
  value: z.string().max(20).optional(),
  startsIn: duration(true),
  lasts: duration(false),
  reason: z.string().max(10_000).optional(),
});

function valueOf(text: string): number | "disabled" | string {
  const trimmed = text.trim();
  if (trimmed === "disabled") return "disabled";
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** The DAL's field-named refusal (a ZodError) as a form error under that field. */
function asFieldError(error: unknown): never {
  if (error instanceof z.ZodError) {
    const issue = error.issues[0];
    const field = String(issue?.path[0] ?? "_form");
    // the form's own names for the API's time fields
    const name = field === "endsAt" ? "lasts" : field === "startsAt" ? "startsIn" : field;
    throw new ConflictError(issue?.message ?? "not valid", name);
  }
  throw error;
}

export async function createOverrideAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(OverrideForm, raw, async (principal, form) => {
    const now = Date.now();
    const startsAt = now + (form.startsIn ? (parseDuration(form.startsIn) ?? 0) : 0);
    const endsAt = startsAt + (parseDuration(form.lasts ?? "") ?? 0);
    const key = form.target && form.target !== EVERY_CHECK ? form.target : undefined;
    const subject = form.subject?.trim() ? form.subject.trim() : undefined;
    const parsed = OverrideInput.safeParse({
      tenant: form.tenant,
      limit: form.limit,
      ...(key ? { key } : {}),
      ...(subject ? { subject } : {}),
      value: valueOf(form.value ?? ""),
      ...(startsAt > now ? { startsAt: new Date(startsAt).toISOString() } : {}),
      endsAt: new Date(endsAt).toISOString(),
      reason: form.reason ?? "",
    });
    if (!parsed.success) asFieldError(parsed.error);
    const created = await createOverride(principal, parsed.data, null).catch(asFieldError);
    return { message: `Override of ${created.limit} saved: ${created.state}, ends ${created.endsAt}.` };
  });
}

export async function endOverrideAction(input: { id: string }): Promise<ActionResult<null>> {
  return runAction(z.strictObject({ id: OverrideId }), input, async (principal, { id }) => {
    await endOverride(principal, id, null);
    return null;
  });
}
