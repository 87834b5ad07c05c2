// Checks the settings and that PostgreSQL and Redis answer, before anything else runs, so a
// bad setting ends `npm start` with one sentence instead of a stack trace.
import pg from "pg";
import { Redis } from "ioredis";
import { EnvError, parseEnv } from "@/lib/env";

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
    fail(`PostgreSQL at ${where.hostname}:${where.port || 5432}${where.pathname} cannot be reached (${(error as Error).message}); check DATABASE_URL.`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkRedis(url: string | undefined, clusterNodes: string | undefined): Promise<void> {
  const [host, port] = clusterNodes ? (clusterNodes.split(",")[0] ?? "").split(":") : [];
  const client = clusterNodes
    ? new Redis({ host, port: Number(port), lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null })
    : new Redis(url ?? "", { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let lastError = "";
  client.on("error", (error: Error) => (lastError = error.message));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    const name = clusterNodes ? "REDIS_CLUSTER_NODES" : "REDIS_URL";
    fail(`Redis at ${clusterNodes ?? url} cannot be reached (${lastError || (error as Error).message}); check ${name}.`);
  } finally {
    client.disconnect();
  }
}

try {
  const settings = parseEnv(process.env);
  await checkPostgres(settings.DATABASE_URL);
  await checkRedis(settings.REDIS_URL, settings.REDIS_CLUSTER_NODES);
} catch (error) {
  if (error instanceof EnvError) fail(error.message);
  throw error;
}
