import "server-only";
import { readPartitionHealth, type PartitionHealth } from "@/lib/usage/partition-health";
import { redis } from "@/lib/shared/redis/redis";
import { usageSettings } from "@/lib/usage/settings";
import { formatDate } from "@/lib/shared/format-date";

// The dashboard's status line for usage storage: partitions of the usage tables that the
// rollup could not create (a full disk, a lost privilege, a name already taken). Until one
// exists the rollup's writes into it fail and are retried, so the usage pages lag behind;
// operators see which and why (the same count is sluice_usage_partitions_missing on
// /api/metrics). Redis that cannot be read (in 250 ms) shows nothing here: the usage pages say so themselves.

const SHOWN = 3;
const WAIT_MS = 250;

export async function UsageStorageStatus({ operator }: { operator: boolean }) {
  if (!operator) return null;
  // every page waits for this line: Redis slow or away costs it at most WAIT_MS, not the page
  const health = await Promise.race([
    readPartitionHealth(redis(), usageSettings().ns).catch(() => null),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), WAIT_MS).unref()),
  ]);
  return health ? <PartitionStatusLine health={health} /> : null;
}

/** The line itself: nothing while every partition the rollup asked for exists. */
export function PartitionStatusLine({ health }: { health: PartitionHealth }) {
  if (health.missing.length === 0) return null;
  const names = health.missing.map((id) => {
    const [table, start] = id.split("@");
    return `${table} from ${formatDate(Number(start))}`;
  });
  const more = names.length > SHOWN ? ` and ${names.length - SHOWN} more` : "";
  return (
    <div role="status" className="notice usage-storage-status" data-testid="usage-partition-status">
      <strong>
        Usage storage: {names.length} partition{names.length === 1 ? "" : "s"} could not be created
      </strong>{" "}
      ({names.slice(0, SHOWN).join(", ")}
      {more}). Usage rollups into them are retried every minute and the usage pages lag until they succeed.
      Last error: {health.lastError ?? "unknown"}. See the server log and{" "}
      <code>sluice_usage_partitions_missing</code> on <code>/api/metrics</code>.
    </div>
  );
}
