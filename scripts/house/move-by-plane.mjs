// Lays lib/ out by plane (docs/architecture.md, README "Architecture"): lib/shared (kernel),
// lib/check (the check path), lib/usage (recording, storage, reads), lib/control (the
// control plane, data access in lib/control/data), lib/server (the processes).
//
// Re-runnable (the engine is move-engine.mjs): files still at an old path are moved (git mv),
// then every import, path string and comment that names an old path is rewritten, in lib/,
// app/, components/, server*.ts, proxy.ts, tests/, scripts/, packages/ and the docs. A second
// run after a merge that brought files or imports at old paths moves and rewrites just those.
//   node scripts/house/move-by-plane.mjs [--dry]
import { pathMapper, runMoves } from "./move-engine.mjs";

/** Exact files first (they win over folders), then folders ("/" at the end), longest first. */
const FILES = {
  "lib/env.ts": "lib/shared/env.ts",
  "lib/redis.ts": "lib/shared/redis/redis.ts",
  "lib/shared/redis-keys.ts": "lib/shared/redis/redis-keys.ts",
  "lib/limiter/lua-files.ts": "lib/shared/redis/lua-files.ts",
  "lib/limiter/ioredis-scripts.ts": "lib/shared/redis/ioredis-scripts.ts",
  "lib/limiter/script-client.ts": "lib/shared/redis/script-client.ts",
  "lib/metrics/registry.ts": "lib/shared/metrics-registry.ts",
  "lib/metrics/check-metrics.ts": "lib/check/check-metrics.ts",
  "lib/metrics/process-metrics.ts": "lib/check/process-metrics.ts",
  "lib/enforce/http/answer.ts": "lib/check/answer.ts",
  // who asks and what they may do, hashing: the check path, data layer and usage reads use them
  "lib/auth/secrets.ts": "lib/shared/secrets.ts",
  "lib/auth/principal.ts": "lib/shared/principal.ts",
  "lib/auth/password.ts": "lib/shared/password.ts",
  "lib/http/malformed-path.ts": "lib/control/api/malformed-path.ts",
  // the published configuration: what the control plane writes and the check path reads
  "lib/config/published.ts": "lib/check/published/published.ts",
  "lib/config/compile/snapshot-types.ts": "lib/check/published/snapshot-types.ts",
  "lib/config/compile/apply-overrides.ts": "lib/check/published/apply-overrides.ts",
  "lib/config/compile/effective-limits.ts": "lib/check/published/effective-limits.ts",
  "lib/config/document/service-limit-schema.ts": "lib/check/published/service-limit-schema.ts",
  "lib/config/parts/index.ts": "lib/check/published/parts.ts",
  // heals Redis from PostgreSQL: it reads the data layer, so it sits there
  "lib/config/reconcile.ts": "lib/control/data/reconcile.ts",
  // webhook address and payload guards, used by the alerts data layer and the sender
  "lib/alerts/redaction.ts": "lib/control/alerts/guard/redaction.ts",
  "lib/alerts/url-guard.ts": "lib/control/alerts/guard/url-guard.ts",
  "lib/alerts/address-policy.ts": "lib/control/alerts/guard/address-policy.ts",
  "lib/alerts/ipv6-words.ts": "lib/control/alerts/guard/ipv6-words.ts",
  // usage: recording (the front), storage (rollups), reads (dashboard, API)
  "lib/usage/recorder.ts": "lib/usage/record/recorder.ts",
  "lib/usage/batch.ts": "lib/usage/record/batch.ts",
  "lib/usage/flush.ts": "lib/usage/record/flush.ts",
  "lib/usage/decision-sink.ts": "lib/usage/record/decision-sink.ts",
  "lib/usage/credential-use.ts": "lib/usage/record/credential-use.ts",
  "lib/usage/tenant-memory.ts": "lib/usage/record/tenant-memory.ts",
  "lib/usage/tenant-memory-scan.ts": "lib/usage/record/tenant-memory-scan.ts",
  "lib/usage/rollup.ts": "lib/usage/store/rollup.ts",
  "lib/usage/redis-read.ts": "lib/usage/store/redis-read.ts",
  "lib/usage/last-used-job.ts": "lib/usage/store/last-used-job.ts",
  "lib/usage/jobs.ts": "lib/usage/store/jobs.ts",
  "lib/usage/api-series.ts": "lib/usage/read/api-series.ts",
  "lib/usage/context.ts": "lib/usage/read/context.ts",
  "lib/usage/custom-window.ts": "lib/usage/read/custom-window.ts",
  "lib/usage/dashboard-types.ts": "lib/usage/read/dashboard-types.ts",
  "lib/usage/dashboard.ts": "lib/usage/read/dashboard.ts",
  "lib/usage/key-traffic.ts": "lib/usage/read/key-traffic.ts",
  // the limits usage can measure, read from the published version: data access
  "lib/usage/limit-candidates.ts": "lib/control/data/usage/limit-candidates.ts",
  "lib/usage/limit-lines.ts": "lib/usage/read/limit-lines.ts",
  "lib/usage/most-limited-types.ts": "lib/usage/read/most-limited-types.ts",
  "lib/usage/most-limited.ts": "lib/usage/read/most-limited.ts",
  "lib/usage/offenders.ts": "lib/usage/read/offenders.ts",
  "lib/usage/query.ts": "lib/usage/read/query.ts",
  "lib/usage/scoped-reader.ts": "lib/usage/read/scoped-reader.ts",
  "lib/usage/summary.ts": "lib/usage/read/summary.ts",
  "lib/usage/utilization.ts": "lib/usage/read/utilization.ts",
  // domain logic out of the data layer (usage reads, the limit tree)
  "lib/data/usage/rows.ts": "lib/usage/read/rows.ts",
  "lib/data/limit-tree.ts": "lib/control/limit-tree/limit-tree.ts",
  "lib/data/limit-tree-counters.ts": "lib/control/limit-tree/limit-tree-counters.ts",
  // an operator's tool over Redis and PostgreSQL: above the data layer
  "lib/data/identifier-lookup.ts": "lib/control/ops/identifier-lookup.ts",
  // the counters feature (read, reset, simulate, live utilization): logic over the data layer
  // and the counter store, which stay in lib/control/data
  ...Object.fromEntries(
    [
      "counters",
      "counter-reset",
      "simulate-check",
      "live-utilization",
      "limit-report",
      "limits-in-force",
      "check-now",
      "snapshot-now",
      "resolve-check",
      "local-state",
      "counter-specs",
    ].map((name) => [`lib/control/data/${name}.ts`, `lib/control/counters/${name}.ts`]),
  ),
  // one object edited at a time (plans, routes, a limit): logic over data/edits/document-edit.ts
  ...Object.fromEntries(
    ["plans", "routes", "save-limit", "limit-target"].map((name) => [
      `lib/control/data/edits/${name}.ts`,
      `lib/control/edits/${name}.ts`,
    ]),
  ),
  // questions about compiled limits (what a name stands for, who imposed a limit): under the
  // data layer, which asks them too
  "lib/control/data/limits-named.ts": "lib/control/config/compile/limits-named.ts",
  "lib/control/data/imposed-limits.ts": "lib/control/config/compile/imposed-limits.ts",
  // pure, over a tenant detail the data layer read
  "lib/control/data/queries/limit-hierarchy.ts": "lib/control/limit-tree/limit-hierarchy.ts",
};
const FOLDERS = {
  "lib/enforce/": "lib/check/",
  "lib/limiter/": "lib/check/limiter/",
  "lib/config/parts/": "lib/check/published/",
  "lib/config/routes/": "lib/check/routes/",
  "lib/config/": "lib/control/config/",
  "lib/http/": "lib/shared/http/",
  "lib/data/": "lib/control/data/",
  "lib/auth/": "lib/control/auth/",
  "lib/api/": "lib/control/api/",
  "lib/openapi/": "lib/control/openapi/",
  "lib/alerts/": "lib/control/alerts/",
  "lib/replay/": "lib/control/replay/",
  "lib/limit-tree/": "lib/control/limit-tree/",
};

/** The new path of an old one (unchanged when no rule names it). */
export const mapPath = pathMapper(FILES, FOLDERS);

runMoves(mapPath, { dry: process.argv.includes("--dry") });
