import "server-only";
import { withStore } from "@/lib/control/data/counters-store";
import { redis } from "@/lib/shared/redis/redis";
import { recentKey } from "@/lib/usage/keys";
import { recentEntrySchema, type RecentEntry } from "@/lib/usage/recent";
import { usageSettings } from "@/lib/usage/settings";

// One tenant's sample of recent decisions as the front's usage flush writes it
// (lib/usage/record/flush.ts): two capped Redis lists, read whole (each holds at most
// LOG_PER_TENANT entries), for the identifier lookup and the decision log.

export interface TenantSample {
  /** the latest sampled decisions, newest first */
  decisions: RecentEntry[];
  /** the latest sampled denials and degraded answers, newest first */
  notable: RecentEntry[];
}

function parseEntries(raw: string[]): RecentEntry[] {
  const out: RecentEntry[] = [];
  for (const text of raw) {
    try {
      const entry = recentEntrySchema.safeParse(JSON.parse(text));
      if (entry.success) out.push(entry.data);
    } catch {
      // an entry that does not parse (JSON or shape) is skipped: the sample is best effort
    }
  }
  return out;
}

/** The tenant's two lists; callers have already checked the principal may read the tenant. */
export async function readTenantSample(tenantId: string): Promise<TenantSample> {
  const ns = usageSettings().ns;
  const [decisions, notable] = await withStore(async () => {
    const replies = await redis()
      .pipeline()
      .lrange(recentKey(ns, tenantId, "d"), 0, -1)
      .lrange(recentKey(ns, tenantId, "x"), 0, -1)
      .exec();
    return (replies ?? []).map(([error, value]) => {
      if (error) throw error;
      return parseEntries(Array.isArray(value) ? (value as string[]) : []);
    });
  });
  return { decisions: decisions ?? [], notable: notable ?? [] };
}

/**
 * Both lists as one, newest first. A denial is in both lists with the same text, so an
 * entry counts as many times as the list holding it most often does (not the sum).
 */
export function mergeSample(sample: TenantSample): RecentEntry[] {
  const counts = new Map<string, { entry: RecentEntry; d: number; x: number }>();
  const add = (entry: RecentEntry, list: "d" | "x"): void => {
    const id = JSON.stringify(entry);
    const seen = counts.get(id) ?? { entry, d: 0, x: 0 };
    seen[list] += 1;
    counts.set(id, seen);
  };
  for (const entry of sample.decisions) add(entry, "d");
  for (const entry of sample.notable) add(entry, "x");
  const out: RecentEntry[] = [];
  for (const { entry, d, x } of counts.values()) for (let i = 0; i < Math.max(d, x); i++) out.push(entry);
  return out.sort((a, b) => b.at - a.at);
}
