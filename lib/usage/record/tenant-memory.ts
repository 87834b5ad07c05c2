import "server-only";
import { addMetricsText } from "@/lib/check/check-metrics";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { Family } from "@/lib/shared/metrics-registry";
import { redis, type RedisClient } from "@/lib/shared/redis/redis";
import { RollupLease } from "@/lib/usage/lease";
import {
  scanTenantMemory,
  type MemoryScanOptions,
  type TenantMemory,
} from "@/lib/usage/record/tenant-memory-scan";
import { startPeriodicTask } from "@/lib/shared/periodic-task";
import { globalSlot } from "@/lib/shared/global-singleton";

// Each tenant's approximate Redis memory (so no tenant fills Redis unseen), measured once a
// minute by one server (whoever holds the lease) with a bounded pass (tenant-memory-scan.ts)
// and published as one hash, which every server reads: the tenant page, and /api/metrics as
// the gauge sluice_tenant_redis_bytes{tenant}. Tenants are created by operators only, so
// a label per tenant stays bounded. Nothing here runs on the check path.

export interface MeasuredMemory extends TenantMemory {
  /** when the pass ran (ms since the epoch) */
  measuredAt: number;
}

export const MEMORY_EVERY_MS = 60_000;
const DEFAULT_SCAN: Omit<MemoryScanOptions, "prefix"> = { maxKeys: 200_000, samplesPerTenant: 32 };

export const memoryKeys = (prefix: string) => ({
  result: `${prefix}{m:tenant-memory}:result`,
  lease: `${prefix}{m:tenant-memory}:lease`,
  fence: `${prefix}{m:tenant-memory}:fence`,
});

/** Replaces the published figures in one step; they expire if no one measures any more. */
export async function publishMemory(
  client: RedisClient,
  prefix: string,
  figures: ReadonlyMap<string, TenantMemory>,
  measuredAt: number,
): Promise<void> {
  const key = memoryKeys(prefix).result;
  const fields: string[] = ["_at", String(measuredAt)];
  for (const [tenant, m] of figures) fields.push(tenant, `${m.bytes}|${m.keys}|${m.complete ? 1 : 0}`);
  await client
    .multi()
    .del(key)
    .hset(key, ...fields)
    .pexpire(key, 5 * MEMORY_EVERY_MS)
    .exec();
}

/** The published figures by tenant id (empty before the first pass). */
export async function readMemory(client: RedisClient, prefix: string): Promise<Map<string, MeasuredMemory>> {
  const raw = await client.hgetall(memoryKeys(prefix).result);
  const measuredAt = Number(raw._at ?? 0);
  const out = new Map<string, MeasuredMemory>();
  for (const [tenant, value] of Object.entries(raw)) {
    if (tenant === "_at") continue;
    const [bytes = "0", keys = "0", complete = "0"] = value.split("|");
    out.set(tenant, { bytes: Number(bytes), keys: Number(keys), complete: complete === "1", measuredAt });
  }
  return out;
}

const cache = globalSlot<{ at: number; figures: Promise<Map<string, MeasuredMemory>> }>("sluiceTenantMemory");

/** One tenant's figures for the dashboard, read at most once a minute per process; null: not measured yet. */
export async function tenantMemoryOf(tenantId: string, prefix: string): Promise<MeasuredMemory | null> {
  const now = Date.now();
  let read = cache.peek();
  if (!read || now - read.at > MEMORY_EVERY_MS) {
    const figures = readMemory(redis(), prefix).catch(() => new Map<string, MeasuredMemory>());
    read = { at: now, figures };
    cache.set(read);
  }
  return (await read.figures).get(tenantId) ?? null;
}

/** The gauge's text for /api/metrics, by tenant slug (ids the config no longer knows are left out). */
export function memoryMetricsText(
  figures: ReadonlyMap<string, MeasuredMemory>,
  slugById: Readonly<Record<string, string>>,
): string {
  const gauge = new Family(
    "sluice_tenant_redis_bytes",
    "Approximate Redis memory of each tenant's counters and usage data (sampled once a minute).",
    "gauge",
    ["tenant"],
  );
  for (const [id, m] of figures) {
    const slug = slugById[id];
    if (slug !== undefined) gauge.cell(slug).value = m.bytes;
  }
  return gauge.render();
}

export interface MemoryJob {
  stop(): Promise<void>;
}

const metrics = globalSlot<string>("sluiceTenantMemoryText");

/** The gauge's current text for /api/metrics (empty until this process's job first read it). */
export function tenantMemoryMetricsText(): string {
  return metrics.peek() ?? "";
}

/** Every server: measure when holding the lease, then read the published figures for metrics. */
export function startMemoryJob(options: {
  client?: RedisClient;
  prefix: string;
  /** tenant id -> slug: given where /api/metrics is served, which then reads the figures */
  slugById?: () => Readonly<Record<string, string>>;
  /** scan and publish when holding the lease (default); false: only read the figures */
  measure?: boolean;
  everyMs?: number;
  scan?: Partial<Omit<MemoryScanOptions, "prefix">>;
}): MemoryJob {
  const client = options.client ?? redis();
  const keys = memoryKeys(options.prefix);
  const everyMs = options.everyMs ?? MEMORY_EVERY_MS;
  const lease = new RollupLease(client, keys, `${hostname()}:${process.pid}:${randomUUID()}`, 2 * everyMs);
  const scan: MemoryScanOptions = { ...DEFAULT_SCAN, ...options.scan, prefix: options.prefix };
  const measure = options.measure ?? true;
  // where /api/metrics is served (the front), the gauge joins its text
  if (options.slugById) addMetricsText(tenantMemoryMetricsText);
  const task = startPeriodicTask("tenant memory", everyMs, async () => {
    if (measure && (await lease.acquire())) {
      const measuredAt = Date.now();
      await publishMemory(client, options.prefix, await scanTenantMemory(client, scan), measuredAt);
    }
    if (options.slugById) {
      const slugById = options.slugById();
      metrics.set(memoryMetricsText(await readMemory(client, options.prefix), slugById));
    }
  });
  return {
    async stop() {
      task.stop();
      if (measure) await lease.release().catch(() => undefined);
    },
  };
}
