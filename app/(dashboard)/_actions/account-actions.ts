"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { safeText } from "@/lib/shared/safe-text";
import {
  ChangePasswordInput,
  changeOwnPassword,
  createResetLink,
  setUserDisabled,
} from "@/lib/control/data/auth/accounts";
import { admitLoginAttempt, recordLoginFailure, sleep } from "@/lib/control/auth/login-limit";
import { reissueSession } from "@/lib/control/auth/reissue-session";
import { clientAddressOf } from "@/lib/shared/http/client-address";
import { linkUrl } from "@/lib/shared/http/link-url";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import { setOwnTimeZone } from "@/lib/control/data/auth/user-settings";
import { TimeZoneInput } from "@/lib/control/account/time-zone-input";
import type { ActionResult } from "@/components/forms/action-result";
import type { FormOutcome } from "@/components/forms/simple-form";

const userId = z.strictObject({ userId: safeText(z.string().min(1).max(64)) });

type Failed = { ok: false; status: number; message: string; fieldErrors?: Record<string, string> };

// The current password is guessed against like a sign-in, so it counts against the same
// limits: a stolen session cannot try passwords faster than the login form allows.
export async function changePasswordAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  let refused: Failed | null = null;
  const result = await runAction(ChangePasswordInput, raw, async (principal, input) => {
    if (principal.kind !== "user") return null;
    const address = clientAddressOf(await headers());
    const verdict = await admitLoginAttempt(principal.email, address);
    if (!verdict.ok) {
      refused = { ok: false, status: 429, message: "Too many attempts. Wait a few minutes, then try again." };
      return null;
    }
    await sleep(verdict.delayMs);
    const outcome = await changeOwnPassword(principal, input);
    if (!outcome.ok) {
      await recordLoginFailure(principal.email, address);
      refused = {
        ok: false,
        status: 422,
        message: "Your current password is not right; nothing was changed.",
        fieldErrors: { current: "is not your current password" },
      };
      return null;
    }
    // Every other session of this account has ended; this one carries on.
    await reissueSession(outcome.sessionVersion);
    return { message: "Password changed. Your other sessions have been signed out." };
  });
  return refused ?? result;
}

export async function setDisabledAction(raw: unknown): Promise<ActionResult<null>> {
  return runAction(
    userId.extend({ disabled: z.enum(["yes", "no"]) }),
    raw,
    async (principal, input) => {
      await setUserDisabled(principal, input.userId, input.disabled === "yes");
      return null;
    },
    ["/users"],
  );
}

export async function resetLinkAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(userId, raw, async (principal, input) => {
    const link = await createResetLink(principal, input.userId);
    return {
      secret: await linkUrl(`/reset/${link.secret}`),
      secretLabel: "One-time reset link (valid 24 hours); give it to the account's owner only:",
    };
  });
}

export async function setTimeZoneAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(
    TimeZoneInput,
    raw,
    async (principal, input) => {
      await setOwnTimeZone(principal, input.timeZone);
      return { message: `Dates and charts are now shown in ${input.timeZone}.` };
    },
    ["/"],
  );
}
