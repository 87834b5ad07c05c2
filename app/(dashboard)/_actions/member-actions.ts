"use server";

import { z } from "zod";
import { NAME_PATTERN } from "@/lib/control/config/document";
import { ChangeRoleInput, changeMemberRole, removeMember } from "@/lib/control/data/members";
import { InviteInput, createInvitation, revokeInvitation } from "@/lib/control/data/invitations";
import { linkUrl } from "@/lib/shared/http/link-url";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";
import type { FormOutcome } from "@/components/forms/simple-form";
import { safeText } from "@/lib/shared/safe-text";

const tenant = z.string().regex(NAME_PATTERN);
const id = safeText(z.string().min(1).max(64));

// The answer is the same whether or not an account has this email: a link to hand over.
export async function inviteMemberAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(InviteInput.extend({ tenant }), raw, async (principal, { tenant: slug, ...input }) => {
    const invitation = await createInvitation(principal, slug, input);
    return {
      secret: await linkUrl(`/invite/${invitation.secret}`),
      secretLabel: `Invitation for ${input.email} as ${input.role}; send this one-time link to them (valid 7 days):`,
    };
  });
}

export async function revokeInvitationAction(raw: unknown): Promise<ActionResult<null>> {
  return runAction(z.strictObject({ tenant, id }), raw, async (principal, input) => {
    await revokeInvitation(principal, input.tenant, input.id);
    return null;
  });
}

export async function changeRoleAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(ChangeRoleInput.extend({ tenant }), raw, async (principal, { tenant: slug, ...input }) => {
    await changeMemberRole(principal, slug, input);
    return { message: "Role changed." };
  });
}

export async function removeMemberAction(raw: unknown): Promise<ActionResult<null>> {
  return runAction(z.strictObject({ tenant, userId: id }), raw, async (principal, input) => {
    await removeMember(principal, input.tenant, input.userId);
    return null;
  });
}
