import "server-only";
import { env } from "@/lib/shared/env";
import { controlOptions, createRedis, hotPathOptions, type RedisClient } from "@/lib/shared/redis/redis";
import { CheckService } from "@/lib/check/check-service";
import { ConfigHolder, type ConfigBackstop } from "@/lib/check/config-holder";
import { LimiterStore } from "@/lib/check/limiter-store";
import { ServiceAuth } from "@/lib/check/service-auth";
import { fairShare, type FairShare } from "@/lib/check/fair/fair-share";
import { ioredisScripts } from "@/lib/shared/redis/ioredis-scripts";
import { checkManyScript, checkScript } from "@/lib/check/limiter/script";
import { LeanRedis } from "@/lib/check/limiter/lean-redis/lean-redis";
import { parseAddresses, SentinelLocator } from "@/lib/check/limiter/lean-redis/sentinel-locator";
import type { HotClient } from "@/lib/shared/redis/script-client";
import { LocalLimits } from "@/lib/check/local/local-limits";
import { localSyncScript } from "@/lib/check/limiter/local/sync-script";

import { LeaseReleaser } from "@/lib/check/lease/lease-release";
// The enforcement side of one server process: its own Redis connections (a hot-path client
// that fails fast, a control client for config reads and healing, a subscriber), the config
// holder, the limiter store and the check service. Started once by server.ts.

export interface Enforcement {
  service: CheckService;
  holder: ConfigHolder;
  store: LimiterStore;
  local: LocalLimits;
  auth: ServiceAuth;
  /** releases concurrency limits' leases (POST /api/check/release) */
  leases: LeaseReleaser;
  checkTimeoutMs: number;
  /** the fair share between callers, and its refusal (lib/enforce/fair) */
  fair: FairShare;
  close(): Promise<void>;
}

/** Hot-path connections used in turn (see LimiterStore). */
const HOT_CONNECTIONS = 3;

/** A local limits' sync call unanswered by then is failed and its increments kept. */
const LOCAL_SYNC_TIMEOUT_MS = 2_000;

/** How often one server asks PostgreSQL whether Redis lags behind it (off the check path). */
const RECONCILE_MS = 5_000;

/** A logger of connection errors, at most one line per 10 s (a Redis outage repeats them). */
function errorLog(role: string): (error: Error) => void {
  let last = 0;
  return (error) => {
    const now = Date.now();
    if (now - last < 10_000) return;
    last = now;
    console.warn(`[sluice] redis (${role}): ${error.message}`);
  };
}

function quietErrors(client: RedisClient, role: string): RedisClient {
  client.on("error", errorLog(role));
  return client;
}

/** The check path's connections: the lean client on a single Redis (or Sentinel's master), ioredis on a Cluster. */
function hotClient(prefix: string): HotClient {
  const settings = env();
  if (settings.REDIS_CLUSTER_NODES) {
    const options = { ...hotPathOptions, ...(prefix ? { keyPrefix: prefix } : {}) };
    return ioredisScripts(quietErrors(createRedis(options), "checks"), [
      checkScript(),
      checkManyScript(),
      localSyncScript(),
    ]);
  }
  return new LeanRedis({
    url: settings.REDIS_URL,
    keyPrefix: prefix,
    clientName: "sluice-checks",
    scripts: [checkScript(), checkManyScript(), localSyncScript()],
    connectTimeoutMs: Number(hotPathOptions.connectTimeout),
    ...(settings.REDIS_SENTINELS
      ? {
          sentinel: new SentinelLocator(
            parseAddresses(settings.REDIS_SENTINELS),
            settings.REDIS_SENTINEL_NAME,
          ),
        }
      : {}),
    onError: errorLog("checks"),
  });
}

export async function startEnforcement(backstop: ConfigBackstop): Promise<Enforcement> {
  const settings = env();
  const prefix = settings.REDIS_PREFIX;
  const hot = Array.from({ length: HOT_CONNECTIONS }, () => hotClient(prefix));
  const control = quietErrors(createRedis(controlOptions), "config");
  const subscriber = quietErrors(createRedis(controlOptions), "config subscriber");
  const holder = new ConfigHolder({
    client: control,
    subscriber,
    prefix,
    pollMs: settings.SLUICE_CONFIG_POLL_MS,
    reconcileMs: RECONCILE_MS,
    backstop,
  });
  const store = new LimiterStore(hot, {
    timeoutMs: settings.SLUICE_CHECK_TIMEOUT_MS,
    // one Redis (or Sentinel's master): no slots to keep a call's keys in
    anyTenant: !settings.REDIS_CLUSTER_NODES,
  });
  const local = new LocalLimits(store, hot, {
    capacity: settings.SLUICE_LOCAL_LIMIT_IDENTITIES,
    syncTimeoutMs: LOCAL_SYNC_TIMEOUT_MS,
  });
  const service = new CheckService(holder, store, local);
  await holder.start();
  return {
    service,
    holder,
    store,
    local,
    auth: new ServiceAuth(settings.SLUICE_BOOTSTRAP_TOKEN),
    leases: new LeaseReleaser(hot),
    checkTimeoutMs: settings.SLUICE_CHECK_TIMEOUT_MS,
    fair: fairShare(settings.SLUICE_CHECK_WINDOW, settings.SLUICE_CHECK_QUEUE),
    async close() {
      holder.stop();
      local.stop();
      for (const client of [...hot, control, subscriber]) client.disconnect();
    },
  };
}
