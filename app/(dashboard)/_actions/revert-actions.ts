"use server";

import { z } from "zod";
import { revertEntry, undoVersion, type RevertResult } from "@/lib/control/data/edits/revert-change";
import { rollbackPreview, type RollbackPreview } from "@/lib/control/data/edits/rollback-preview";
import { RollbackInput } from "@/lib/control/data/config-rollback";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";

// Change safety: undo a save, revert one recorded change, and look at a rollback before
// confirming it. The DAL calls check rights and go through the audited, versioned import.

const RevertInput = z.strictObject({
  id: z.string().regex(/^\d{1,18}$/, { error: "must be an audit entry id" }),
});
const UndoInput = z.strictObject({ version: RollbackInput.shape.version });
const PreviewInput = RollbackInput.pick({ version: true, tenant: true });

export async function revertChangeAction(raw: unknown): Promise<ActionResult<RevertResult>> {
  return runAction(RevertInput, raw, (principal, input) => revertEntry(principal, input.id, null), ["/"]);
}

export async function undoSaveAction(raw: unknown): Promise<ActionResult<RevertResult>> {
  return runAction(UndoInput, raw, (principal, input) => undoVersion(principal, input.version, null), ["/"]);
}

export async function rollbackPreviewAction(raw: unknown): Promise<ActionResult<RollbackPreview>> {
  return runAction(PreviewInput, raw, (principal, input) => rollbackPreview(principal, input));
}
