"use server";

import { z } from "zod";
import { NAME_PATTERN, NAME_RULE } from "@/lib/config/document";
import { createPlan, removePlan } from "@/lib/data/edits/plans";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";
import type { FormOutcome } from "@/components/forms/simple-form";

const PlanInput = z.strictObject({ name: z.string().regex(NAME_PATTERN, { error: NAME_RULE }) });

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
