import "server-only";
import { db } from "@/lib/data/db";
import { env } from "@/lib/env";
import { redis } from "@/lib/redis";
import { configKeys } from "@/lib/shared/redis-keys";

export interface HealthReport {
  status: "ok" | "down";
  postgres: { ok: boolean; error?: string };
  redis: { ok: boolean; error?: string };
  configVersion: number | null;
}

const TIMEOUT_MS = 1_000;

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS)),
  ]);
}

function reason(error: unknown): string {
  // Messages only; never connection strings.
  return error instanceof Error ? error.message.replace(/\w+:\/\/\S+/g, "<url>") : "unreachable";
}

export async function checkHealth(): Promise<HealthReport> {
  const [pg, rd] = await Promise.allSettled([
    withTimeout(db().$queryRaw<{ version: number | null }[]>`select max(version) as version from "ConfigVersion"`, "PostgreSQL"),
    withTimeout(redis().get(configKeys(env().REDIS_PREFIX).version), "Redis"),
  ]);
  const fromRedis = rd.status === "fulfilled" && rd.value !== null ? Number(rd.value) : null;
  const fromPg = pg.status === "fulfilled" ? (pg.value[0]?.version ?? null) : null;
  return {
    status: pg.status === "fulfilled" && rd.status === "fulfilled" ? "ok" : "down",
    postgres: pg.status === "fulfilled" ? { ok: true } : { ok: false, error: reason(pg.reason) },
    redis: rd.status === "fulfilled" ? { ok: true } : { ok: false, error: reason(rd.reason) },
    configVersion: fromRedis ?? (fromPg === null ? null : Number(fromPg)),
  };
}
