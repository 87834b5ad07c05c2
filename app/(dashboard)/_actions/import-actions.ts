"use server";

import { z } from "zod";
import { applyImport, previewImport, type ImportPreview } from "@/lib/control/data/edits/import-yaml";
import type { ImportResult } from "@/lib/control/data/import-config";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";
import { safeText } from "@/lib/shared/safe-text";

const YamlInput = z.strictObject({
  text: safeText(z.string().min(1, { error: "paste a YAML document" }).max(1_000_000)),
});

export async function previewImportAction(raw: unknown): Promise<ActionResult<ImportPreview>> {
  return runAction(YamlInput, raw, (principal, input) => previewImport(principal, input.text));
}

export async function applyImportAction(raw: unknown): Promise<ActionResult<ImportResult>> {
  return runAction(YamlInput, raw, (principal, input) => applyImport(principal, input.text), ["/"]);
}
