import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "@/lib/shared/env";
import { parseAddresses } from "@/lib/check/limiter/lean-redis/sentinel-locator";

// REDIS_SENTINELS / REDIS_SENTINEL_NAME: validated at start with a sentence naming the
// setting; Sentinel and Cluster are exclusive.

const base = { DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/sluice" };
const problem = (source: Record<string, string>): string => {
  try {
    parseEnv({ ...base, ...source });
    return "accepted";
  } catch (error) {
    return error instanceof EnvError ? error.message : String(error);
  }
};

describe("Redis Sentinel settings", () => {
  it("accepts a list of sentinels and a group name, with mymaster as the default name", () => {
    const settings = parseEnv({ ...base, REDIS_SENTINELS: "10.0.0.1:26379,sentinel-b:26380" });
    expect([settings.REDIS_SENTINELS, settings.REDIS_SENTINEL_NAME]).toEqual([
      "10.0.0.1:26379,sentinel-b:26380",
      "mymaster",
    ]);
    expect(parseAddresses(settings.REDIS_SENTINELS ?? "")).toEqual([
      { host: "10.0.0.1", port: 26379 },
      { host: "sentinel-b", port: 26380 },
    ]);
    expect(parseEnv({ ...base, REDIS_SENTINEL_NAME: "prod.redis-1" }).REDIS_SENTINEL_NAME).toBe(
      "prod.redis-1",
    );
  });

  it("names the setting when a value is malformed", () => {
    expect(problem({ REDIS_SENTINELS: "10.0.0.1" })).toBe(
      "Bad settings: REDIS_SENTINELS must be host:port[,host:port...].",
    );
    expect(problem({ REDIS_SENTINELS: "a:1, b:2" })).toMatch(
      /^Bad settings: REDIS_SENTINELS must be host:port/,
    );
    expect(problem({ REDIS_SENTINEL_NAME: "my master" })).toBe(
      "Bad settings: REDIS_SENTINEL_NAME must be 1-64 of A-Z a-z 0-9 . _ -.",
    );
  });

  it("refuses Sentinel and Cluster together", () => {
    expect(problem({ REDIS_SENTINELS: "a:26379", REDIS_CLUSTER_NODES: "b:6379" })).toBe(
      "Bad settings: REDIS_SENTINELS and REDIS_CLUSTER_NODES cannot both be set (Sentinel or Cluster, not both).",
    );
  });
});
