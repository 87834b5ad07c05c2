"use server";

import { z } from "zod";
import { NAME_PATTERN, NAME_RULE, routeSchema } from "@/lib/control/config/document";
import {
  addGlobalRoute,
  addTenantRoute,
  removeGlobalRoute,
  removeTenantRoute,
} from "@/lib/control/data/edits/routes";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";
import type { FormOutcome } from "@/components/forms/simple-form";

// tenant absent: a global route (operators only; the DAL refuses everyone else).
const RouteInput = z.strictObject({
  tenant: z.string().regex(NAME_PATTERN, { error: NAME_RULE }).optional(),
  pattern: routeSchema.shape.pattern,
});

export async function addRouteAction(raw: unknown): Promise<ActionResult<FormOutcome | null>> {
  return runAction(RouteInput, raw, async (principal, input) => {
    if (input.tenant) await addTenantRoute(principal, input.tenant, input.pattern);
    else await addGlobalRoute(principal, input.pattern);
    return { message: `Route ${input.pattern} added. Give it limits in the limit editor.` };
  });
}

export async function removeRouteAction(raw: unknown): Promise<ActionResult<null>> {
  return runAction(RouteInput, raw, async (principal, input) => {
    if (input.tenant) await removeTenantRoute(principal, input.tenant, input.pattern);
    else await removeGlobalRoute(principal, input.pattern);
    return null;
  });
}
