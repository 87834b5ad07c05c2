"use server";

import { z } from "zod";
import { NAME_PATTERN } from "@/lib/config/document";
import {
  AddMemberInput,
  ChangeRoleInput,
  addMember,
  changeMemberRole,
  removeMember,
} from "@/lib/data/members";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";
import type { FormOutcome } from "@/components/forms/simple-form";
import { safeText } from "@/lib/shared/safe-text";

const tenant = z.string().regex(NAME_PATTERN);

export async function addMemberAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(AddMemberInput.extend({ tenant }), raw, async (principal, { tenant: slug, ...input }) => {
    const added = await addMember(principal, slug, input);
    return added.temporaryPassword
      ? {
          secret: added.temporaryPassword,
          secretLabel: `New account ${input.email} created; its first password:`,
        }
      : { message: `${input.email} added as ${input.role}.` };
  });
}

export async function changeRoleAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(ChangeRoleInput.extend({ tenant }), raw, async (principal, { tenant: slug, ...input }) => {
    await changeMemberRole(principal, slug, input);
    return { message: "Role changed." };
  });
}

export async function removeMemberAction(raw: unknown): Promise<ActionResult<null>> {
  return runAction(
    z.strictObject({ tenant, userId: safeText(z.string().min(1).max(64)) }),
    raw,
    async (principal, input) => {
      await removeMember(principal, input.tenant, input.userId);
      return null;
    },
  );
}
