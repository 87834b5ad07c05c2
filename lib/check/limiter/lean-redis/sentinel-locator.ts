import "server-only";
import { connect, type Socket } from "node:net";
import { ReplyError, RespReader, type RespValue } from "@/lib/check/limiter/lean-redis/resp-reader";
import { parseAddresses, type RedisAddress } from "@/lib/shared/redis/redis-addresses";

// Where the master of a Redis Sentinel group is, for LeanRedis (the check path's own
// client): asks the sentinels in turn (SENTINEL get-master-addr-by-name) and keeps one
// subscribed to +switch-master, so a failover moves the client at once instead of at its
// next connection loss. ioredis does the same for every other client (lib/redis.ts).

export { parseAddresses, type RedisAddress };

export type LocateCallback = (error: Error | null, address?: RedisAddress) => void;

const command = (parts: readonly string[]): string =>
  `*${parts.length}\r\n${parts.map((part) => `$${Buffer.byteLength(part)}\r\n${part}\r\n`).join("")}`;

export class SentinelLocator {
  private watcher: Socket | null = null;
  private watching = false;
  private next = 0;

  constructor(
    private readonly sentinels: readonly RedisAddress[],
    private readonly name: string,
    private readonly timeoutMs = 1_000,
  ) {}

  /** The master's address from the first sentinel that knows it. */
  locate(done: LocateCallback, tried = 0): void {
    if (tried >= this.sentinels.length) {
      done(new Error(`no sentinel knows the master of "${this.name}"`));
      return;
    }
    const index = (this.next + tried) % this.sentinels.length;
    this.ask(this.sentinels[index] as RedisAddress, (error, reply) => {
      const address = error ? null : addressOf(reply);
      if (address === null) {
        this.locate(done, tried + 1);
        return;
      }
      this.next = index; // ask the one that answered first next time
      done(null, address);
    });
  }

  /** Calls onSwitch on every +switch-master of this group until stop(). */
  watch(onSwitch: () => void): void {
    this.watching = true;
    const sentinel = this.sentinels[this.next % this.sentinels.length] as RedisAddress;
    const socket = connect(sentinel);
    const reader = new RespReader();
    this.watcher = socket;
    socket.setTimeout(this.timeoutMs, () => socket.destroy());
    socket.once("connect", () => {
      socket.setTimeout(0);
      socket.setKeepAlive(true, 5_000);
      socket.write(command(["SUBSCRIBE", "+switch-master"]));
    });
    socket.on("data", (chunk: Buffer) => {
      reader.feed(chunk, (value) => {
        // ["message", "+switch-master", "<name> <old ip> <old port> <new ip> <new port>"]
        if (Array.isArray(value) && value[0] === "message" && String(value[2]).split(" ")[0] === this.name)
          onSwitch();
      });
    });
    socket.on("error", () => undefined); // the close below retries on the next sentinel
    socket.on("close", () => {
      if (!this.watching || this.watcher !== socket) return;
      this.next = (this.next + 1) % this.sentinels.length;
      setTimeout(() => this.watching && this.watch(onSwitch), 200);
    });
  }

  stop(): void {
    this.watching = false;
    this.watcher?.destroy();
    this.watcher = null;
  }

  private ask(sentinel: RedisAddress, done: (error: Error | null, reply?: RespValue) => void): void {
    const socket = connect(sentinel);
    const reader = new RespReader();
    let answered = false;
    const finish = (error: Error | null, reply?: RespValue): void => {
      if (answered) return;
      answered = true;
      socket.destroy();
      done(error, reply);
    };
    socket.setTimeout(this.timeoutMs, () => finish(new Error("sentinel timeout")));
    socket.once("connect", () => socket.write(command(["SENTINEL", "get-master-addr-by-name", this.name])));
    socket.on("data", (chunk: Buffer) => {
      try {
        reader.feed(chunk, (value) => finish(value instanceof ReplyError ? value : null, value));
      } catch (error) {
        finish(error as Error);
      }
    });
    socket.on("error", (error: Error) => finish(error));
    socket.on("close", () => finish(new Error("sentinel closed the connection")));
  }
}

function addressOf(reply: RespValue | undefined): RedisAddress | null {
  if (!Array.isArray(reply) || reply.length !== 2) return null;
  const port = Number(reply[1]);
  return typeof reply[0] === "string" && Number.isInteger(port) && port > 0 ? { host: reply[0], port } : null;
}
