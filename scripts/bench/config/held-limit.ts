// The two-server test at the bench's size: a tenant of its own with a tenant-wide limit of
// 20 an hour, checked from servers A and B at once. However many tenants the installation
// has, exactly the limit may pass over both servers: the count lives in Redis, not in
// either server's copy of the configuration.
import type { Admin } from "./admin-client";
import { limitValue, type CheckClient } from "./check-client";
import { PLAN } from "./document";
import { waitFor } from "./stats";

export interface HeldLimit {
  limit: number;
  sent: number;
  allowed: number;
  /** from the import's answer until both servers enforce the limit, ms (null: not within the cap) */
  enforcedMs: number | null;
}

const LIMIT = 20;
const NAME = "held";
const SLUG = "held-across-servers";

export async function limitHeldAcrossServers(
  admin: Admin,
  clients: readonly CheckClient[],
  capMs: number,
): Promise<HeldLimit> {
  const limit = { name: NAME, by: "tenant", algorithm: "fixed_window", limit: LIMIT, window: "1h" };
  const imported = await admin.call(
    "PUT",
    "/api/admin/config",
    { tenants: [{ slug: SLUG, plan: PLAN, limits: [limit] }] },
    capMs,
  );
  if (imported.status !== 200)
    throw new Error(`the held tenant's import answered ${imported.status}: ${imported.text}`);
  const enforcedMs = await waitFor(async () => {
    for (const client of clients) {
      const { decision } = await client.check({ tenant: SLUG, dryRun: true });
      if (limitValue(decision, NAME) !== LIMIT) return false;
    }
    return true;
  }, capMs);
  const perServer = 2 * LIMIT;
  let allowed = 0;
  await Promise.all(
    clients.map(async (client) => {
      for (let n = 0; n < perServer; n++)
        if ((await client.check({ tenant: SLUG })).decision?.allowed) allowed++;
    }),
  );
  return { limit: LIMIT, sent: perServer * clients.length, allowed, enforcedMs };
}
