import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppProcess, freePort, ThrowawayRedis } from "../check/processes";
import { unique } from "../check/setup";
import { waitForVersion } from "../check/http";
import { auth, closeEnvoyClients, generic, setupDomain } from "./envoy-setup";
import { rateLimited } from "./rls-client";

// ShouldRateLimit with Redis gone, on a throwaway Redis and an app process of this file's own:
// each descriptor is decided by its limits' onStoreFailure (open: OK, closed: OVER_LIMIT),
// answered at once, as /api/check answers degraded (tests/integration/check/redis-outage.test.ts).

const domain = unique("envoy-down");
const big = { by: "tenant" as const, algorithm: "fixed_window" as const, limit: 1_000_000, window: "1m" };

let redis: ThrowawayRedis;
let app: AppProcess;
let grpc = "";

beforeAll(async () => {
  const setup = await setupDomain(domain, [
    { pattern: "* /generic_key/open", limits: [{ name: "lenient", ...big, onStoreFailure: "open" }] },
    { pattern: "* /generic_key/closed", limits: [{ name: "strict", ...big, onStoreFailure: "closed" }] },
  ]);
  redis = new ThrowawayRedis(await freePort());
  await redis.start();
  const grpcPort = await freePort();
  grpc = `127.0.0.1:${grpcPort}`;
  app = new AppProcess(await freePort(), { REDIS_URL: redis.url, SLUICE_GRPC_PORT: String(grpcPort) });
  await app.start();
  await waitForVersion(setup.version, app.url, 10_000);
}, 90_000);

afterAll(async () => {
  await app?.stop();
  await redis?.kill();
  await closeEnvoyClients();
});

describe("ShouldRateLimit with Redis down", () => {
  it("answers each descriptor by its limit's onStoreFailure, at once", async () => {
    const request = { domain, descriptors: [generic("open"), generic("closed")] };
    const up = await rateLimited(request, auth, grpc);
    expect(up.statuses.map((s) => s.code)).toEqual(["OK", "OK"]);
    await redis.kill();
    const started = performance.now();
    const down = await rateLimited(request, auth, grpc);
    // the check timeout is 50 ms; a closed connection answers sooner
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(down.overall_code).toBe("OVER_LIMIT");
    expect(down.statuses.map((s) => s.code)).toEqual(["OK", "OVER_LIMIT"]);
  });
});
