import "server-only";
import { env } from "@/lib/env";
import { controlOptions, createRedis, hotPathOptions, type RedisClient } from "@/lib/redis";
import { CheckService } from "@/lib/enforce/check-service";
import { ConfigHolder } from "@/lib/enforce/config-holder";
import { LimiterStore } from "@/lib/enforce/limiter-store";
import { ServiceAuth } from "@/lib/enforce/service-auth";

// The enforcement side of one server process: its own Redis connections (a hot-path client
// that fails fast, a control client for config reads and healing, a subscriber), the config
// holder, the limiter store and the check service. Started once by server.ts.

export interface Enforcement {
  service: CheckService;
  holder: ConfigHolder;
  store: LimiterStore;
  auth: ServiceAuth;
  checkTimeoutMs: number;
  close(): Promise<void>;
}

/** Hot-path connections used in turn (see LimiterStore). */
const HOT_CONNECTIONS = 3;

/** How often one server asks PostgreSQL whether Redis lags behind it (off the check path). */
const RECONCILE_MS = 5_000;

function quietErrors(client: RedisClient, role: string): RedisClient {
  let last = 0;
  client.on("error", (error: Error) => {
    const now = Date.now();
    if (now - last < 10_000) return;
    last = now;
    console.warn(`[sluice] redis (${role}): ${error.message}`);
  });
  return client;
}

export async function startEnforcement(): Promise<Enforcement> {
  const settings = env();
  const prefix = settings.REDIS_PREFIX;
  const hot = Array.from({ length: HOT_CONNECTIONS }, () =>
    quietErrors(createRedis({ ...hotPathOptions, ...(prefix ? { keyPrefix: prefix } : {}) }), "checks"),
  );
  const control = quietErrors(createRedis(controlOptions), "config");
  const subscriber = quietErrors(createRedis(controlOptions), "config subscriber");
  const holder = new ConfigHolder({
    client: control,
    subscriber,
    prefix,
    pollMs: settings.SLUICE_CONFIG_POLL_MS,
    reconcileMs: RECONCILE_MS,
  });
  const store = new LimiterStore(hot, { timeoutMs: settings.SLUICE_CHECK_TIMEOUT_MS });
  const service = new CheckService(holder, store);
  await holder.start();
  return {
    service,
    holder,
    store,
    auth: new ServiceAuth(settings.SLUICE_BOOTSTRAP_TOKEN),
    checkTimeoutMs: settings.SLUICE_CHECK_TIMEOUT_MS,
    async close() {
      holder.stop();
      for (const client of [...hot, control, subscriber]) client.disconnect();
    },
  };
}
