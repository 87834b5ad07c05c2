import "server-only";
import type { Snapshot } from "@/lib/control/config/compile";
import type { PublishedOverride } from "@/lib/check/published/published";
import { snapshotAt } from "@/lib/check/config-index";
import { latestPublished } from "@/lib/control/data/counters-store";

// The configuration as /api/check enforces it at this moment: the newest version with the
// temporary overrides in force applied, through the check path's own snapshotAt. Kept until
// the next override start or end (or a new version), so the route matchers built on the
// snapshot's objects are reused between requests, as on the check servers.

export interface SnapshotNow {
  /** as saved, without overrides (what resets address: overrides keep the limit ids) */
  plain: Snapshot;
  /** with the overrides in force at `at` applied */
  snapshot: Snapshot;
  /** the overrides applied */
  active: PublishedOverride[];
  at: number;
}

let cached: { version: number; from: number; until: number | null; value: SnapshotNow } | null = null;

/** The newest version at `now` with its overrides in force; null before any version exists. */
export async function snapshotNow(now: number = Date.now()): Promise<SnapshotNow | null> {
  const published = await latestPublished();
  if (!published) return null;
  if (
    cached !== null &&
    cached.version === published.version &&
    now >= cached.from &&
    (cached.until === null || now < cached.until)
  )
    return { ...cached.value, at: now };
  const { snapshot, active, nextChangeAt } = snapshotAt(published, now);
  const value: SnapshotNow = { plain: published.snapshot, snapshot, active, at: now };
  cached = { version: published.version, from: now, until: nextChangeAt, value };
  return value;
}
