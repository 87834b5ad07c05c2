"use server";

import { z } from "zod";
import { NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";
import { createAlertEndpoint, disableAlertEndpoint } from "@/lib/control/data/alerts/endpoints";
import { CreateEndpointInput, CreateRuleInput } from "@/lib/control/alerts/input/inputs";
import { createAlertRule, disableAlertRule } from "@/lib/control/data/alerts/rules";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";
import type { FormOutcome } from "@/components/forms/simple-form";

// The Alerts tab's forms. Form fields arrive as text: numbers and the yes/no choice are
// converted here, then the DAL's own schema checks everything again (and the roles).

const slug = z.string().regex(NAME_PATTERN, { error: NAME_RULE });
const number = (what: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, { error: `must be a ${what}` })
    .transform(Number);

/** The DAL's own rules too, so that each problem shows under its field (not as a failure). */
function alsoChecks(schema: z.ZodType, value: unknown, ctx: z.RefinementCtx): void {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
}

const CreateEndpoint = z
  .strictObject({
    tenant: slug,
    name: slug,
    url: z.string().max(2_048, { error: "must be at most 2048 characters" }),
    format: z.enum(["json", "slack"]).default("json"),
    allowPrivate: z.enum(["no", "yes"]).default("no"),
  })
  .superRefine(({ tenant: _t, allowPrivate, ...rest }, ctx) =>
    alsoChecks(CreateEndpointInput, { ...rest, allowPrivate: allowPrivate === "yes" }, ctx),
  );

export async function createEndpointAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(CreateEndpoint, raw, async (principal, input) => {
    const { tenant, allowPrivate, ...rest } = input;
    const made = await createAlertEndpoint(principal, tenant, {
      ...rest,
      allowPrivate: allowPrivate === "yes",
    });
    return { secret: made.secret, secretLabel: `Signing secret of ${made.endpoint.name}.` };
  });
}

const CreateRule = z
  .strictObject({
    tenant: slug,
    name: slug,
    kind: z.enum(["utilization", "rejection_rate", "degraded"]),
    endpoint: slug,
    limit: slug.optional(),
    key: slug.optional(),
    route: z.string().max(200, { error: "must be at most 200 characters" }).optional(),
    thresholdPct: number("number (percent)").optional(),
    forSeconds: number("number of seconds").optional(),
  })
  .superRefine(({ tenant: _t, ...rule }, ctx) => alsoChecks(CreateRuleInput, rule, ctx));

export async function createRuleAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(CreateRule, raw, async (principal, input) => {
    const { tenant, ...rule } = input;
    const made = await createAlertRule(principal, tenant, rule);
    return { message: `Rule ${made.name} created.` };
  });
}

const ByName = z.strictObject({ tenant: slug, name: slug });
const ById = z.strictObject({ tenant: slug, id: z.string().min(1).max(64) });

export async function disableEndpointAction(raw: unknown): Promise<ActionResult<null>> {
  return runAction(ByName, raw, async (principal, input) => {
    await disableAlertEndpoint(principal, input.tenant, input.name);
    return null;
  });
}

export async function disableRuleAction(raw: unknown): Promise<ActionResult<null>> {
  return runAction(ById, raw, async (principal, input) => {
    await disableAlertRule(principal, input.tenant, input.id);
    return null;
  });
}
