import "server-only";
import { db } from "@/lib/control/data/db";
import { env } from "@/lib/shared/env";
import { redis } from "@/lib/shared/redis/redis";
import { configKeys } from "@/lib/shared/redis/redis-keys";

// /api/health is unauthenticated: it answers in a fixed vocabulary only ("ok", "degraded",
// "down"), never a driver's message, a host or a port. Why a store is down goes to the log,
// once per change of state.

export type ComponentState = "ok" | "down";

export interface HealthReport {
  /** ok: both stores answer; degraded: one of them does not; down: neither does */
  status: "ok" | "degraded" | "down";
  postgres: ComponentState;
  redis: ComponentState;
  configVersion: number | null;
}

const TIMEOUT_MS = 1_000;
const lastLogged: Record<"postgres" | "redis", ComponentState> = { postgres: "ok", redis: "ok" };

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS),
    ),
  ]);
}

function stateOf(component: "postgres" | "redis", result: PromiseSettledResult<unknown>): ComponentState {
  const state: ComponentState = result.status === "fulfilled" ? "ok" : "down";
  if (state !== lastLogged[component]) {
    lastLogged[component] = state;
    if (result.status === "rejected") console.error(`[sluice] health: ${component} is down:`, result.reason);
    else console.error(`[sluice] health: ${component} answers again`);
  }
  return state;
}

export async function checkHealth(): Promise<HealthReport> {
  const [pg, rd] = await Promise.allSettled([
    withTimeout(
      db().$queryRaw<{ version: number | null }[]>`select max(version) as version from "ConfigVersion"`,
      "PostgreSQL",
    ),
    withTimeout(redis().get(configKeys(env().REDIS_PREFIX).version), "Redis"),
  ]);
  const postgres = stateOf("postgres", pg);
  const redisState = stateOf("redis", rd);
  const fromRedis = rd.status === "fulfilled" && rd.value !== null ? Number(rd.value) : null;
  const fromPg = pg.status === "fulfilled" ? (pg.value[0]?.version ?? null) : null;
  const up = [postgres, redisState].filter((s) => s === "ok").length;
  return {
    status: up === 2 ? "ok" : up === 1 ? "degraded" : "down",
    postgres,
    redis: redisState,
    configVersion: fromRedis ?? (fromPg === null ? null : Number(fromPg)),
  };
}
