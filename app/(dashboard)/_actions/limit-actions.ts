"use server";

import { z } from "zod";
import { limitSchema } from "@/lib/control/config/document";
import { saveLimit, LimitValidationFailed } from "@/lib/control/data/edits/save-limit";
import { limitTargetSchema } from "@/lib/control/data/edits/limit-target";
import { actionUser } from "@/lib/control/auth/session";
import { failure } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";
import { safeText } from "@/lib/shared/safe-text";

// The limit editor's save and delete. Errors whose document path is this limit's come back
// as field errors (same messages as the API's); any other error is listed with its path.

const SaveInput = z.strictObject({
  target: limitTargetSchema,
  originalName: safeText(z.string().max(63)).nullable(),
  limit: limitSchema,
});

const DeleteInput = z.strictObject({ target: limitTargetSchema, name: safeText(z.string().min(1).max(63)) });

export interface SavedLimitOutcome {
  configVersion: number | null;
}

function fieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const [head, field] = issue.path.map(String);
    const key = head === "limit" && field ? field : "_form";
    out[key] ??= issue.message;
  }
  return out;
}

export async function saveLimitAction(raw: unknown): Promise<ActionResult<SavedLimitOutcome>> {
  const parsed = SaveInput.safeParse(raw);
  if (!parsed.success)
    return {
      ok: false,
      status: 400,
      message: "Some fields need fixing.",
      fieldErrors: fieldErrors(parsed.error.issues),
    };
  try {
    const principal = await actionUser();
    const saved = await saveLimit(principal, parsed.data.target, {
      originalName: parsed.data.originalName,
      limit: parsed.data.limit,
    });
    return { ok: true, data: { configVersion: saved.configVersion } };
  } catch (error) {
    const base = failure(error);
    if (error instanceof LimitValidationFailed) {
      const mine: Record<string, string> = {};
      const others = [];
      for (const e of error.errors) {
        const field =
          e.path === error.fieldPath
            ? "_form"
            : e.path.startsWith(`${error.fieldPath}.`)
              ? e.path.slice(error.fieldPath.length + 1)
              : null;
        if (field) mine[field] ??= e.message;
        else others.push({ path: e.path, message: e.message });
      }
      return { ...base, fieldErrors: mine, errors: others };
    }
    return base;
  }
}

export async function deleteLimitAction(raw: unknown): Promise<ActionResult<SavedLimitOutcome>> {
  const parsed = DeleteInput.safeParse(raw);
  if (!parsed.success) return { ok: false, status: 400, message: "Bad request." };
  try {
    const principal = await actionUser();
    const saved = await saveLimit(principal, parsed.data.target, {
      originalName: parsed.data.name,
      limit: null,
    });
    return { ok: true, data: { configVersion: saved.configVersion } };
  } catch (error) {
    return failure(error);
  }
}
