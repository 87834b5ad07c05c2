import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import { ForbiddenError } from "@/lib/control/errors/errors";

// A signed-in user's own console settings: for now the time zone every date and chart axis
// is shown in (docs/dashboard.md#time-zone). Each user sets only their own.

/** Sets the principal's own time zone; `zone` is already checked (TimeZoneInput). */
export async function setOwnTimeZone(principal: Principal, zone: string): Promise<void> {
  if (principal.kind !== "user") throw new ForbiddenError("Only a signed-in user has a time zone setting.");
  await db().user.update({ where: { id: principal.id }, data: { timeZone: zone } });
}
