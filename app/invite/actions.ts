"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { acceptAsNewAccount, acceptAsSignedIn, NewAccountInput } from "@/lib/control/data/invitations";
import { LinkSecret } from "@/lib/control/auth/policy/passwords";
import { actionUser } from "@/lib/control/auth/session";
import { failure } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";
import type { FormOutcome } from "@/components/forms/simple-form";
import { fieldErrors, linkFailure } from "@/app/invite/link-failure";

// The invitation link's two ways in. Neither needs a tenant role: the link's secret is the
// right, bound to its email (a signed-in account must be that email).

const NewAccount = NewAccountInput.extend({ token: LinkSecret });

export async function createAccountAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  const parsed = NewAccount.safeParse(raw);
  if (!parsed.success)
    return { ok: false, message: "Some fields need fixing.", fieldErrors: fieldErrors(parsed.error) };
  const { token, ...input } = parsed.data;
  try {
    await acceptAsNewAccount(token, input);
  } catch (error) {
    return linkFailure(error);
  }
  redirect("/login?notice=account-ready");
}

export async function acceptInvitationAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  const parsed = z.strictObject({ token: LinkSecret }).safeParse(raw);
  if (!parsed.success) return { ok: false, message: "This invitation link is not valid." };
  let slug: string;
  try {
    slug = (await acceptAsSignedIn(await actionUser(), parsed.data.token)).tenantSlug;
  } catch (error) {
    return error instanceof Error && error.name === "NotFoundError" ? linkFailure(error) : failure(error);
  }
  redirect(`/tenants/${slug}`);
}
