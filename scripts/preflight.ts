// Checks the settings and that PostgreSQL and Redis answer, before anything else runs, so a
// bad setting ends `npm start` with one sentence instead of a stack trace.
import pg from "pg";
import { Redis } from "ioredis";
import { EnvError, parseEnv, type Env } from "@/lib/shared/env";
import { parseAddresses } from "@/lib/check/limiter/lean-redis/sentinel-locator";

function fail(sentence: string): never {
  console.error(`\x1b[1;31m[sluice] ${sentence}\x1b[0m`);
  process.exit(1);
}

async function checkPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("select 1");
  } catch (error) {
    const where = new URL(url);
    fail(
      `PostgreSQL at ${where.hostname}:${where.port || 5432}${where.pathname} cannot be reached (${(error as Error).message}); check DATABASE_URL.`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkRedis(settings: Env): Promise<void> {
  const { REDIS_URL: url, REDIS_CLUSTER_NODES: clusterNodes, REDIS_SENTINELS: sentinels } = settings;
  const [host, port] = clusterNodes ? (clusterNodes.split(",")[0] ?? "").split(":") : [];
  const once = {
    lazyConnect: true,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  };
  const client = clusterNodes
    ? new Redis({ host, port: Number(port), ...once })
    : sentinels
      ? new Redis({
          sentinels: parseAddresses(sentinels),
          name: settings.REDIS_SENTINEL_NAME,
          sentinelRetryStrategy: () => null,
          ...once,
        })
      : new Redis(url, once);
  let lastError = "";
  client.on("error", (error: Error) => (lastError = error.message));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    const name = clusterNodes
      ? "REDIS_CLUSTER_NODES"
      : sentinels
        ? "REDIS_SENTINELS and REDIS_SENTINEL_NAME"
        : "REDIS_URL";
    fail(
      `Redis at ${clusterNodes ?? sentinels ?? url} cannot be reached (${lastError || (error as Error).message}); check ${name}.`,
    );
  } finally {
    client.disconnect();
  }
}

try {
  const settings = parseEnv(process.env);
  await checkPostgres(settings.DATABASE_URL);
  await checkRedis(settings);
} catch (error) {
  if (error instanceof EnvError) fail(error.message);
  throw error;
}
