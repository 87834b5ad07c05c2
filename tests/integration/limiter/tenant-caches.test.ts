import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckAnswer } from "@/lib/check/check-answer";
import { CheckService } from "@/lib/check/check-service";
import { hotKeyOf } from "@/lib/check/hot-checks";
import type { ConfigHolder } from "@/lib/check/config-holder";
import { LimiterStore } from "@/lib/check/limiter-store";
import type { Caller } from "@/lib/check/service-auth";
import type { CheckInput } from "@/lib/check/types";
import { ioredisScripts, loadScripts } from "@/lib/shared/redis/ioredis-scripts";
import { checkManyScript, checkScript } from "@/lib/check/limiter/script";
import {
  checkInput,
  PartsHolder,
  published,
  secretOf,
  type TenantSpec,
} from "../../unit/enforce/tenants-fixture";
import { connect, RUN } from "./redis";

// The check service's caches across config versions with real counters: a change to one
// tenant leaves another's answers, counters, cached shapes, whole checks and stored denials
// as they were, while the changed tenant's next check counts with its new limit (a stored
// denial of its old limit no longer answers). Versions are applied as parts by a real
// ConfigState (tenants-fixture.ts), listeners told which tenants each touched.

const redis = connect();
const everyone: Caller = { id: "svc", tenants: null };
const acme = (limit: number): TenantSpec => ({ slug: "acme", limit, keys: ["backend"] });
const globex: TenantSpec = { slug: "globex", limit: 3, keys: ["api"] };

let holder: PartsHolder;
let service: CheckService;

beforeAll(async () => {
  if (redis.status !== "ready") await once(redis, "ready");
  await loadScripts(redis, [checkScript(), checkManyScript()]);
  const store = new LimiterStore([ioredisScripts(redis, [checkScript(), checkManyScript()])], {
    timeoutMs: 2_000,
  });
  holder = new PartsHolder(published(1, [acme(2), globex], RUN));
  service = new CheckService(holder as unknown as ConfigHolder, store);
});
afterAll(async () => {
  await redis.quit();
});

interface Decision {
  allowed: boolean;
  reason: string;
  limit: number | null;
  remaining: number | null;
  configVersion: number;
}

function check(fields: Partial<CheckInput>): Promise<Decision> {
  return new Promise((resolve, reject) => {
    service.decide(checkInput(fields), everyone, (answer: CheckAnswer) => {
      if (answer.status !== 200) return reject(new Error(`status ${answer.status}`));
      resolve(JSON.parse(answer.decision.json) as Decision);
    });
  });
}

const pick = ({ allowed, reason, limit, remaining, configVersion }: Decision) => ({
  allowed,
  reason,
  limit,
  remaining,
  configVersion,
});

describe("a tenant's change through real counters", () => {
  it("leaves another tenant's answers and caches as they were; the changed one counts with its new limit", async () => {
    const acmeKey = { apiKey: secretOf("acme", "backend") };
    const globexKey = { apiKey: secretOf("globex", "api") };
    // acme spends its 2, globex 2 of its 3
    expect(pick(await check(acmeKey))).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(pick(await check(acmeKey))).toMatchObject({ allowed: true, remaining: 0 });
    expect(pick(await check(acmeKey))).toMatchObject({ allowed: false, reason: "rate_limited" });
    expect(pick(await check(globexKey))).toMatchObject({ allowed: true, limit: 3, remaining: 2 });
    expect(pick(await check(globexKey))).toMatchObject({ allowed: true, remaining: 1 });
    expect(service.denied.empty).toBe(false); // acme's denial is stored
    const shapes = service.shapes.size;
    const globexHot = hotKeyOf(checkInput(globexKey));
    const globexEntry = service.hot.get(globexHot);
    expect(globexEntry).toBeDefined();

    // acme's limit raised to 5 (version 2): only acme touched
    expect(holder.publish(published(2, [acme(5), globex], RUN))).toEqual(new Set(["acme"]));
    expect(service.shapes.size).toBe(shapes - 1);
    expect(service.hot.get(globexHot)).toBe(globexEntry);

    // globex: the same counters and limit, from the kept entry, naming version 2
    expect(pick(await check(globexKey))).toEqual({
      allowed: true,
      reason: "ok",
      limit: 3,
      remaining: 0,
      configVersion: 2,
    });
    const spent = pick(await check(globexKey));
    expect(spent).toMatchObject({ allowed: false, reason: "rate_limited", configVersion: 2 });
    // acme: its stored denial (limit 2) no longer answers; the 2 used count against 5
    expect(pick(await check(acmeKey))).toEqual({
      allowed: true,
      reason: "ok",
      limit: 5,
      remaining: 2,
      configVersion: 2,
    });
    expect(pick(await check({ tenant: "acme" }))).toMatchObject({ allowed: true, limit: 5, remaining: 1 });

    // globex raised to 4 (version 3): its stored denial of limit 3 no longer answers either
    holder.publish(published(3, [acme(5), { ...globex, limit: 4 }], RUN));
    expect(pick(await check(globexKey))).toMatchObject({ allowed: true, limit: 4, remaining: 0 });
    // acme, untouched this time, counts on
    expect(pick(await check(acmeKey))).toMatchObject({
      allowed: true,
      limit: 5,
      remaining: 0,
      configVersion: 3,
    });
  });
});
