// One size's servers: a fresh database, a fresh Redis and two Sluice servers (A and B, the
// built .next/sluice/server.mjs as npm start runs it) on the same PostgreSQL and Redis, as a
// deployment with two instances. Ports from BENCH_CONFIG_PORTS ("app A,app B,redis"), else
// free ones. The bootstrap token is the bench's operator and check credential.
import { randomBytes } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { freshBenchDatabase } from "../database";
import { startApp, type App } from "../app-server";
import { startBenchRedis } from "../bench-redis";
import { freePort, stopProcesses } from "../processes";

export interface Servers {
  a: App;
  b: App;
  databaseUrl: string;
  token: string;
  stop(): Promise<void>;
}

async function ports(): Promise<[number, number, number]> {
  const given = process.env.BENCH_CONFIG_PORTS?.split(",").map(Number);
  if (given && given.length === 3 && given.every((p) => Number.isInteger(p) && p > 0))
    return given as [number, number, number];
  if (given)
    throw new Error(`BENCH_CONFIG_PORTS: must be "appA,appB,redis", got ${process.env.BENCH_CONFIG_PORTS}`);
  return [await freePort(), await freePort(), await freePort()];
}

/** The bench's database is "<name>_config_bench" beside DATABASE_URL's, recreated per size. */
function benchBase(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${url.pathname.replace(/^\//, "").replace(/_bench$/, "") || "sluice"}_config`;
  return url.href;
}

export async function startServers(baseUrl: string): Promise<Servers> {
  const [portA, portB, redisPort] = await ports();
  const redis: ChildProcess = await startBenchRedis(redisPort);
  const databaseUrl = await freshBenchDatabase(benchBase(baseUrl));
  const token = `bench-config-${randomBytes(18).toString("base64url")}`;
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    REDIS_PREFIX: "",
    NODE_ENV: "production",
    SLUICE_BOOTSTRAP_TOKEN: token,
    // 10,000 tenants hold 120,000 limits: the installation's cap (20,000 by default) is raised
    // so that what is measured is the pipeline, not a cap refusing the document.
    SLUICE_MAX_LIMITS_TOTAL: process.env.SLUICE_MAX_LIMITS_TOTAL ?? "1000000",
  };
  const started: App[] = [];
  try {
    started.push(await startApp("server-a", portA, env, token));
    started.push(await startApp("server-b", portB, env, token));
  } catch (error) {
    await Promise.all(started.map((app) => app.stop()));
    await stopProcesses([redis]);
    throw error;
  }
  const [a, b] = started as [App, App];
  return {
    a,
    b,
    databaseUrl,
    token,
    stop: async () => {
      await Promise.all([a.stop(), b.stop()]);
      await stopProcesses([redis]);
    },
  };
}
