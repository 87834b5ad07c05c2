"use server";

import { z } from "zod";
import { createApiKey, revokeApiKey } from "@/lib/control/data/api-keys";
import { rotateApiKey } from "@/lib/control/data/key-rotation";
import { formatDate } from "@/lib/shared/format-date";
import { GRACE_CHOICES, graceLabels } from "@/lib/control/keys/grace-choices";
import { NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";
import type { FormOutcome } from "@/components/forms/simple-form";

const slug = z.string().regex(NAME_PATTERN, { error: NAME_RULE });

const CreateKey = z.strictObject({
  tenant: slug,
  name: slug,
  // datetime-local has no zone: read as UTC, and only a future moment makes sense.
  expiresAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, { error: "must be a date and time" })
    .refine((v) => Date.parse(`${v}Z`) > Date.now(), { error: "must be in the future" })
    .optional(),
});

export async function createKeyAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(
    CreateKey,
    raw,
    async (principal, input) => {
      const expiresAt = input.expiresAt ? new Date(`${input.expiresAt}Z`).toISOString() : undefined;
      const key = await createApiKey(principal, input.tenant, { name: input.name, expiresAt });
      return { secret: key.key, secretLabel: `API key ${key.name} created.` };
    },
    ["/tenants"],
  );
}

const RevokeKey = z.strictObject({ tenant: slug, name: slug });

export async function revokeKeyAction(raw: unknown): Promise<ActionResult<null>> {
  return runAction(RevokeKey, raw, async (principal, input) => {
    await revokeApiKey(principal, input.tenant, input.name);
    return null;
  });
}

const RotateKey = z.strictObject({
  tenant: slug,
  name: slug,
  grace: z.enum(graceLabels, { error: `must be one of: ${graceLabels.join(", ")}` }),
});

export async function rotateKeyAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(
    RotateKey,
    raw,
    async (principal, input) => {
      const rotated = await rotateApiKey(principal, input.tenant, input.name, {
        graceSeconds: GRACE_CHOICES[input.grace],
      });
      const until = formatDate(
        new Date(rotated.previousUntil),
        principal.kind === "user" ? principal.timeZone : undefined,
      );
      return {
        secret: rotated.key,
        secretLabel: `API key ${rotated.name} rotated: its new secret. The old one (${rotated.previousPrefix}…) works until ${until}.`,
      };
    },
    ["/tenants"],
  );
}
