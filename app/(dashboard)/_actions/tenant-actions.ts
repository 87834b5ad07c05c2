"use server";

import {
  CreateTenantInput,
  UpdateTenantInput,
  createTenant,
  updateTenant,
} from "@/lib/control/data/edits/tenants";
import { UpdateListsInput, updateTenantLists } from "@/lib/control/data/edits/tenant-lists";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";
import type { FormOutcome } from "@/components/forms/simple-form";

export async function createTenantAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(
    CreateTenantInput,
    raw,
    async (principal, input) => {
      await createTenant(principal, input);
      return { message: `Tenant ${input.slug} created.` };
    },
    ["/"],
  );
}

export async function updateTenantAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(UpdateTenantInput, raw, async (principal, input) => {
    const result = await updateTenant(principal, input);
    return { message: result.changes.length ? "Saved." : "Nothing changed." };
  });
}

export async function updateListsAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(UpdateListsInput, raw, async (principal, input) => {
    const result = await updateTenantLists(principal, input);
    return { message: result.changes.length ? "Saved." : "Nothing changed." };
  });
}
