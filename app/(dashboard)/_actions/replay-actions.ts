"use server";

import { runReplay } from "@/lib/control/replay/run-replay";
import { replayRequestSchema, type ReplayResult } from "@/lib/control/replay/types";
import { runAction } from "@/app/(dashboard)/_lib/run-action";
import type { ActionResult } from "@/components/forms/action-result";

// The limit editor's what-if replay (docs/replay.md): reads only, so a reader of the
// tenant's usage may run it; the DAL scopes the tenant and the key.

export async function replayLimitAction(raw: unknown): Promise<ActionResult<ReplayResult>> {
  return runAction(replayRequestSchema, raw, (principal, input) => runReplay(principal, input));
}
