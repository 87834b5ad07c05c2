import type { Principal } from "@/lib/shared/principal";
import { createApiKey } from "@/lib/control/data/api-keys";
import { importConfig } from "@/lib/control/data/import-config";
import { createServiceToken } from "@/lib/control/data/tokens";
import { latestPublished } from "@/lib/control/data/config-versions";
import { effectiveLimits, resolveRoutes } from "@/lib/control/config/compile";
import { matchLimits } from "@/lib/check/limit-specs";
import { buildCall } from "@/lib/check/limiter/evaluate";
import { buildManyCall, prepareCheck } from "@/lib/check/limiter/evaluate-many";
import { checkManyScript, checkScript } from "@/lib/check/limiter/script";

// The benchmark's configuration: one tenant with three limits on every check (tenant, key,
// route), set so the load never exhausts them, plus a key already over a tight limit.

const bench: Principal = { kind: "system", label: "bench" };
export const ROUTE = "POST /v1/search";
/** (s2): the same limit on a route pattern with an id, requested with 1,000 ids */
export const ITEMS_PATTERN = "GET /v1/items/:id";
export const KEY_COUNT = 100;

const big = 1_000_000;
export const document = (withKeys: boolean) => ({
  plans: [
    {
      name: "bench",
      limits: [
        { name: "tenant-rpm", by: "tenant", algorithm: "sliding_window", limit: 1_000_000_000, window: "1m" },
        { name: "key-rps", by: "key", algorithm: "gcra", limit: big, window: "1s", burst: big },
      ],
    },
  ],
  routes: [
    {
      pattern: ROUTE,
      limits: [{ name: "search", by: "key", algorithm: "token_bucket", limit: big, window: "1s" }],
    },
    {
      pattern: ITEMS_PATTERN,
      limits: [{ name: "items", by: "key", algorithm: "token_bucket", limit: big, window: "1s" }],
    },
  ],
  tenants: [
    {
      slug: "bench",
      plan: "bench",
      keys: withKeys
        ? [{ name: "over", limits: [{ name: "key-rps", limit: 1, burst: 1, window: "1h" }] }]
        : [],
    },
  ],
});

export interface BenchSetup {
  token: string;
  keys: string[];
  overKey: string;
  /** redis-benchmark arguments: EVALSHA of the check script exactly as a check sends it */
  evalsha: string[];
  lua: string;
  /** the same for check-many.lua as a batch of `batch` checks of distinct keys sends it */
  evalshaMany: string[];
  luaMany: string;
}

export async function seedBench(batch: number): Promise<BenchSetup> {
  await importConfig(bench, document(false));
  const keys: string[] = [];
  for (let i = 0; i < KEY_COUNT; i++) keys.push((await createApiKey(bench, "bench", { name: `k${i}` })).key);
  const overKey = (await createApiKey(bench, "bench", { name: "over" })).key;
  await importConfig(bench, document(true));
  const { token } = await createServiceToken(bench, { name: "bench" });
  const published = await latestPublished();
  if (!published) throw new Error("no config version after seeding");
  const snapshot = published.snapshot;
  const tenant = snapshot.tenants.bench;
  if (!tenant) throw new Error("bench tenant missing from the snapshot");
  const route = resolveRoutes(snapshot, "bench", ROUTE);
  const specsOf = (name: string) =>
    matchLimits(effectiveLimits(snapshot, "bench", name, route), {
      tenantId: tenant.id,
      keyId: tenant.keys[name]?.id ?? null,
      subject: null,
    }).specs;
  const request = { cost: 1, dryRun: false };
  const single = buildCall(specsOf("k0"), request);
  const many = buildManyCall(
    Array.from({ length: batch }, (_, i) => prepareCheck({ limits: specsOf(`k${i % KEY_COUNT}`), request })),
  );
  const evalsha = (sha: string, call: { keys: string[]; args: Array<number | string> }) => [
    "EVALSHA",
    sha,
    String(call.keys.length),
    ...call.keys,
    ...call.args.map(String),
  ];
  return {
    token,
    keys,
    overKey,
    evalsha: evalsha(checkScript().sha, single),
    lua: checkScript().lua,
    evalshaMany: evalsha(checkManyScript().sha, many),
    luaMany: checkManyScript().lua,
  };
}
