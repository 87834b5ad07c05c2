"use server";

import { z } from "zod";
import { NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";
import { serviceLimitSchema } from "@/lib/check/published/service-limit-schema";
import { createPlan, removePlan, setPlanService } from "@/lib/control/data/edits/plans";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";
import type { FormOutcome } from "@/components/forms/simple-form";

const planName = z.string().regex(NAME_PATTERN, { error: NAME_RULE });
const PlanInput = z.strictObject({ name: planName });

const wholeNumber = z
  .string()
  .trim()
  .regex(/^[0-9]{1,12}$/, { error: "must be a whole number" })
  .transform(Number);

// Both fields empty: no service limit. The numbers are checked by the document's own schema,
// so the form refuses exactly what an import would, under the field it concerns.
const ServiceInput = z
  .strictObject({ name: planName, checksPerSecond: wholeNumber.optional(), burst: wholeNumber.optional() })
  .superRefine((input, ctx) => {
    if (input.checksPerSecond === undefined) {
      if (input.burst !== undefined)
        ctx.addIssue({
          code: "custom",
          path: ["checksPerSecond"],
          message: "required with a burst (leave both empty for no service limit)",
        });
      return;
    }
    const parsed = serviceLimitSchema.safeParse({
      checksPerSecond: input.checksPerSecond,
      burst: input.burst,
    });
    for (const issue of parsed.error?.issues ?? [])
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  });

export async function createPlanAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(PlanInput, raw, async (principal, input) => {
    await createPlan(principal, input.name);
    return { message: `Plan ${input.name} created. Give it limits below.` };
  });
}

export async function removePlanAction(raw: unknown): Promise<ActionResult<null>> {
  return runAction(PlanInput, raw, async (principal, input) => {
    await removePlan(principal, input.name);
    return null;
  });
}

export async function setPlanServiceAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(ServiceInput, raw, async (principal, input) => {
    const service =
      input.checksPerSecond === undefined
        ? null
        : {
            checksPerSecond: input.checksPerSecond,
            ...(input.burst === undefined ? {} : { burst: input.burst }),
          };
    await setPlanService(principal, input.name, service);
    return { message: `Service limit of plan ${input.name} saved.` };
  });
}
