"use server";

import { z } from "zod";
import {
  CreateAdminTokenInput,
  CreateServiceTokenInput,
  createAdminToken,
  createServiceToken,
} from "@/lib/control/data/tokens";
import { revokeToken } from "@/lib/control/data/edits/revoke-token";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";
import type { FormOutcome } from "@/components/forms/simple-form";
import { safeText } from "@/lib/shared/safe-text";

// Checkbox lists arrive as arrays; past a few tenants the form asks for slugs as text instead,
// separated by commas or spaces. None ticked or written means "every tenant" (operators only).
const ServiceTokenForm = z.strictObject({
  name: CreateServiceTokenInput.shape.name,
  tenants: z
    .union([
      z.array(safeText(z.string())),
      safeText(z.string().max(10_000, "tenants: at most 10,000 characters")).transform((text) =>
        text.split(/[\s,]+/).filter((slug) => slug !== ""),
      ),
    ])
    .optional()
    .transform((list) => (list && list.length ? list : undefined)),
});

export async function createServiceTokenAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(ServiceTokenForm, raw, async (principal, input) => {
    const token = await createServiceToken(principal, CreateServiceTokenInput.parse(input));
    return { secret: token.token, secretLabel: "Service token created." };
  });
}

export async function createAdminTokenAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(CreateAdminTokenInput, raw, async (principal, input) => {
    const token = await createAdminToken(principal, input);
    return { secret: token.token, secretLabel: "Admin API token created." };
  });
}

const RevokeInput = z.strictObject({
  kind: z.enum(["service", "admin"]),
  id: safeText(z.string().min(1).max(64)),
});

export async function revokeTokenAction(raw: unknown): Promise<ActionResult<null>> {
  return runAction(RevokeInput, raw, async (principal, input) => {
    await revokeToken(principal, input.kind, input.id);
    return null;
  });
}
