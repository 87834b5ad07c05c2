import { once } from "node:events";
import { createServer, type AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { ioredisScripts } from "@/lib/shared/redis/ioredis-scripts";
import { LeanRedis } from "@/lib/check/limiter/lean-redis/lean-redis";
import type { HotClient } from "@/lib/shared/redis/script-client";

// A stand-in Redis for the check path's fault tests (batched.test.ts): it answers the
// client's hand-shake and then nothing, or one fixed reply to every command.

/** A TCP peer that answers ioredis' hand-shake (CLIENT SETINFO) and, with `reply`, every other command. */
export async function fakeRedis(
  kind: "ioredis" | "lean",
  reply?: string,
): Promise<{ client: HotClient; close: () => void }> {
  const server = createServer((socket) => {
    socket.on("data", (data: Buffer) => {
      const text = data.toString();
      const handshakes = text.split("SETINFO").length - 1;
      if (handshakes > 0) socket.write("+OK\r\n".repeat(handshakes));
      else if (reply !== undefined) socket.write(reply);
    });
  }).listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  if (kind === "lean") {
    const client = new LeanRedis({ url: `redis://127.0.0.1:${port}` });
    await new Promise<void>((resolve) => client.onReady(resolve));
    return {
      client,
      close: () => {
        client.disconnect();
        server.close();
      },
    };
  }
  const ioredis = new Redis({ port, enableReadyCheck: false, protocol: 2, maxRetriesPerRequest: 0 });
  await once(ioredis, "ready");
  return {
    client: ioredisScripts(ioredis),
    close: () => {
      ioredis.disconnect();
      server.close();
    },
  };
}
