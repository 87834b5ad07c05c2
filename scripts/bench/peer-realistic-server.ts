// (d-mix) the peer on the realistic mix: rate-limiter-flexible doing the work Sluice does
// for the same checks, one RateLimiterRedis per limit of realistic-config.ts, keyed by the
// same identities (tenant, key, subject; route limits per route), behind node:http. It
// resolves the API key from a map and the route with one regular expression, as a service
// with its limits in code would. argv: PORT REDIS_URL KEYS_JSON_FILE.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { UNROUTED, patternOf, routedLimits, type BenchLimit } from "./realistic-config";
import type { SeededKey } from "./realistic-seed";

const [, , portText, redisUrl, keysFile] = process.argv;
const redis = new Redis(redisUrl ?? "redis://127.0.0.1:6379", { enableAutoPipelining: true, protocol: 2 });
const keys = new Map(
  (JSON.parse(readFileSync(keysFile ?? "", "utf8")) as SeededKey[]).map((k) => [k.apiKey, k]),
);
const limiters = new Map<string, RateLimiterRedis>();
const limiterOf = (name: string): RateLimiterRedis => {
  let limiter = limiters.get(name);
  if (!limiter)
    limiters.set(
      name,
      (limiter = new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `peer-${name}`,
        points: 1_000_000_000,
        duration: 60,
      })),
    );
  return limiter;
};
const ROUTE = /^GET \/v1\/res(\d+)\/[^/?#]+$/;

interface Body {
  apiKey?: string;
  route?: string;
  subject?: string;
}

function identity(limit: BenchLimit, key: SeededKey, subject: string): string {
  if (limit.by === "tenant") return `t${key.tenant}`;
  if (limit.by === "key") return `t${key.tenant}.k${key.key}`;
  return `t${key.tenant}.s.${subject}`;
}

function consumeAll(body: Body): Promise<unknown> {
  const key = keys.get(body.apiKey ?? "");
  if (!key) return Promise.resolve({ allowed: false, reason: "unknown_key" });
  const subject = body.subject ?? "";
  const match = ROUTE.exec(body.route ?? "");
  const pattern = match ? Number(match[1]) : -1;
  const calls = UNROUTED.map((limit) => limiterOf(limit.name).consume(identity(limit, key, subject)));
  if (pattern >= 0)
    for (const limit of routedLimits(pattern, key.tenant))
      calls.push(limiterOf(limit.name).consume(`${identity(limit, key, subject)}|${patternOf(pattern)}`));
  return Promise.all(calls).then(
    (results) => ({ allowed: true, remaining: Math.min(...results.map((r) => r.remainingPoints)) }),
    (error: unknown) => {
      if (error instanceof RateLimiterRes) return { allowed: false, retryAfterMs: error.msBeforeNext };
      return { allowed: true, degraded: true };
    },
  );
}

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Body;
    void consumeAll(body).then((decision) => {
      const text = JSON.stringify(decision);
      response.writeHead(200, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
      });
      response.end(text);
    });
  });
}).listen(Number(portText), "127.0.0.1", () => console.log("ready"));
