import { Redis } from "ioredis";
import { startProcess } from "./processes";

// The benchmark's own Redis: loopback only, nothing on disk, ready when it answers PING.
export async function startBenchRedis(port: number): ReturnType<typeof startProcess> {
  const url = `redis://127.0.0.1:${port}`;
  return startProcess(
    "redis",
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {},
    async () => {
      const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
      probe.on("error", () => undefined);
      try {
        await probe.connect();
        return (await probe.ping()) === "PONG";
      } finally {
        probe.disconnect();
      }
    },
  );
}
