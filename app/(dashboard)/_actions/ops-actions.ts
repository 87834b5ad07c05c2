"use server";

import { z } from "zod";
import { resetCounter, ResetInput, type ResetResult } from "@/lib/control/counters/counter-reset";
import { LiftInput, liftPenalty, type LiftResult } from "@/lib/control/counters/penalty-lift";
import { RollbackInput, rollbackConfig, type RollbackResult } from "@/lib/control/data/config-rollback";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";

// The ops tools' writes: a counter reset and a penalty's lift from the identifier lookup, and
// a rollback from the configuration history. Both are the admin API's own DAL calls (rights checked there).

export async function resetCounterAction(raw: unknown): Promise<ActionResult<ResetResult>> {
  return runAction(ResetInput, raw, (principal, input) => resetCounter(principal, input, null));
}

export async function liftPenaltyAction(raw: unknown): Promise<ActionResult<LiftResult>> {
  return runAction(LiftInput, raw, (principal, input) => liftPenalty(principal, input, null));
}

const RollbackForm = RollbackInput.extend({ dryRun: z.literal(false).default(false) });

export async function rollbackAction(raw: unknown): Promise<ActionResult<RollbackResult>> {
  return runAction(RollbackForm, raw, (principal, input) => rollbackConfig(principal, input, null), ["/"]);
}
