"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { redeemResetLink } from "@/lib/control/data/auth/accounts";
import { LinkSecret, NewPassword } from "@/lib/control/auth/policy/passwords";
import type { ActionResult } from "@/components/forms/action-result";
import type { FormOutcome } from "@/components/forms/simple-form";
import { fieldErrors, linkFailure } from "@/app/invite/link-failure";

const Input = z.strictObject({ token: LinkSecret, password: NewPassword });

export async function resetPasswordAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  const parsed = Input.safeParse(raw);
  if (!parsed.success)
    return { ok: false, message: "Some fields need fixing.", fieldErrors: fieldErrors(parsed.error) };
  try {
    await redeemResetLink(parsed.data.token, { password: parsed.data.password });
  } catch (error) {
    return linkFailure(error);
  }
  redirect("/login?notice=password-set");
}
