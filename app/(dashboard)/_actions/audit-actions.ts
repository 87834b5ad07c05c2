"use server";

import { z } from "zod";
import { auditEntryValues } from "@/lib/control/data/queries/audit-entry-values";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import { fieldDiff, type FieldChange } from "@/components/audit/field-diff";
import type { ActionResult } from "@/components/forms/action-result";

// The audit log's folded changes, read when a reader unfolds one entry (the page sends only
// how many fields each changed): the same field-level diff the page used to send whole.

const ChangesInput = z.strictObject({
  id: z.string().regex(/^\d{1,18}$/, { error: "must be an audit entry id" }),
});

export async function auditChangesAction(raw: unknown): Promise<ActionResult<FieldChange[]>> {
  return runAction(ChangesInput, raw, async (principal, input) => {
    const { before, after } = await auditEntryValues(principal, input.id);
    return fieldDiff(before, after);
  });
}
