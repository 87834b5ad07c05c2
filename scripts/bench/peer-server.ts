// (d) the peer: rate-limiter-flexible with three RateLimiterRedis (tenant, key, route)
// behind node:http, the way a service would commonly build it. argv: PORT REDIS_URL.
import { createServer } from "node:http";
import { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

const [, , portText, redisUrl] = process.argv;
const redis = new Redis(redisUrl ?? "redis://127.0.0.1:6379", { enableAutoPipelining: true, protocol: 2 });
const limiter = (keyPrefix: string, points: number, duration: number) =>
  new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration });
const tenant = limiter("peer-tenant", 100_000_000, 60);
const key = limiter("peer-key", 1_000_000, 1);
const route = limiter("peer-route", 1_000_000, 1);

interface Body {
  apiKey?: string;
  route?: string;
}

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Body;
    const who = body.apiKey ?? "anonymous";
    Promise.all([tenant.consume("bench"), key.consume(who), route.consume(`${who}|${body.route ?? ""}`)])
      .then(
        (results) => ({ allowed: true, remaining: Math.min(...results.map((r) => r.remainingPoints)) }),
        (error: unknown) => {
          if (error instanceof RateLimiterRes) return { allowed: false, retryAfterMs: error.msBeforeNext };
          return { allowed: true, degraded: true };
        },
      )
      .then((decision) => {
        const text = JSON.stringify(decision);
        response.writeHead(200, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(text),
        });
        response.end(text);
      });
  });
}).listen(Number(portText), "127.0.0.1", () => console.log("ready"));
