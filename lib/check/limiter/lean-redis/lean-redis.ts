import "server-only";
import { connect as connectTcp, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import { ReplyError, RespReader, type RespValue } from "@/lib/check/limiter/lean-redis/resp-reader";
import type { HotClient, ReplyCallback, Script } from "@/lib/shared/redis/script-client";
import type { RedisAddress, SentinelLocator } from "@/lib/check/limiter/lean-redis/sentinel-locator";
import { PING, scriptCommand, setupCommands } from "@/lib/check/limiter/lean-redis/resp-commands";
import { PendingReplies, type Pending } from "@/lib/check/limiter/lean-redis/pending-replies";

// The limiter's own connection to a single Redis, for the check path only: it sends script
// calls (EVALSHA, EVAL after NOSCRIPT) and PINGs, encoded straight into one string per
// command (resp-commands.ts), and reads the replies with RespReader. ioredis does far more
// per command (Command objects, promises, argument flattening, a generic decoder): on the
// check path that was about a tenth of the server's CPU. Fail-fast like the hot path needs:
// nothing is queued while disconnected (`ready` is false and callers answer degraded), every
// call in flight fails at once when the connection drops, and it reconnects by itself with a
// short backoff. Redis Cluster keeps ioredis (lib/limiter/ioredis-scripts.ts). Behind Redis
// Sentinel (`sentinel`), every connection first asks the sentinels where the master is,
// checks ROLE, and is dropped (so re-resolved) on a +switch-master or a READONLY reply.

export interface LeanRedisOptions {
  /** redis:// or rediss:// URL: host, port, optional user and password, optional /db */
  url: string;
  /** prepended to every key, as ioredis' keyPrefix */
  keyPrefix?: string;
  /** CLIENT SETNAME on every connection (CLIENT LIST then tells Sluice's connections apart) */
  clientName?: string;
  /**
   * SCRIPT LOAD on every connection, before it is ready: calls then never meet NOSCRIPT
   * (but after a SCRIPT FLUSH), whose retry would let later calls overtake earlier ones
   */
  scripts?: readonly Script[];
  connectTimeoutMs?: number;
  /** find the master through Redis Sentinel; `url` then gives only user, password and db */
  sentinel?: SentinelLocator;
  onError?: (error: Error) => void;
}

type Status = "connecting" | "ready" | "closed" | "ended";

export class LeanRedis implements HotClient {
  private socket: Socket | null = null;
  private status: Status = "closed";
  private readonly reader = new RespReader();
  private readonly pending = new PendingReplies();
  private attempt = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly readyListeners: Array<() => void> = [];
  private readonly target: URL;
  private readonly prefix: string;

  constructor(private readonly options: LeanRedisOptions) {
    this.target = new URL(options.url);
    this.prefix = options.keyPrefix ?? "";
    options.sentinel?.watch(() => this.masterChanged());
    this.connect();
  }

  get ready(): boolean {
    return this.status === "ready";
  }

  /** Called on every (re)connection. */
  onReady(listener: () => void): void {
    this.readyListeners.push(listener);
  }

  run(
    script: Script,
    keys: readonly string[],
    args: readonly (string | number)[],
    done: ReplyCallback,
  ): void {
    const text = scriptCommand("EVALSHA", script.sha, keys, args, this.prefix);
    this.send(text, { done, retry: { script, keys, args } });
  }

  ping(done: ReplyCallback): void {
    this.send(PING, { done });
  }

  disconnect(): void {
    this.status = "ended";
    this.options.sentinel?.stop();
    if (this.timer) clearTimeout(this.timer);
    this.socket?.destroy();
  }

  private send(text: string, entry: Pending): void {
    if (this.status !== "ready" || this.socket === null) {
      entry.done(new Error("Redis is not connected"));
      return;
    }
    this.pending.push(entry);
    this.socket.write(text);
  }

  private connect(): void {
    this.status = "connecting";
    const { hostname, port } = this.target;
    const sentinel = this.options.sentinel;
    if (!sentinel) {
      this.open({ host: hostname.replace(/^\[|\]$/g, "") || "127.0.0.1", port: Number(port || 6379) });
      return;
    }
    sentinel.locate((error, address) => {
      if (this.status === "ended") return;
      if (error || !address) {
        this.options.onError?.(error ?? new Error("no master"));
        this.retryLater();
      } else this.open(address);
    });
  }

  private open(address: RedisAddress): void {
    const { protocol } = this.target;
    const host = address.host;
    const options = { host, port: address.port };
    const socket =
      protocol === "rediss:" ? connectTls({ ...options, servername: host }) : connectTcp(options);
    this.socket = socket;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 10_000);
    socket.setTimeout(this.options.connectTimeoutMs ?? 1_000, () =>
      socket.destroy(new Error("connect timeout")),
    );
    socket.once(protocol === "rediss:" ? "secureConnect" : "connect", () => {
      socket.setTimeout(0);
      const { clientName, sentinel, scripts } = this.options;
      this.handshake(socket, setupCommands(this.target, { clientName, checkRole: !!sentinel, scripts }));
    });
    socket.on("data", (chunk: Buffer) => {
      try {
        this.reader.feed(chunk, this.deliver);
      } catch (error) {
        socket.destroy(error as Error);
      }
    });
    socket.on("error", (error: Error) => this.options.onError?.(error));
    socket.on("close", () => this.closed(socket));
  }

  /** AUTH, SELECT, CLIENT SETNAME and SCRIPT LOAD (when asked), then ready; a refusal closes the connection. */
  private handshake(socket: Socket, setup: string[]): void {
    let left = setup.length;
    const becomeReady = (): void => {
      this.status = "ready";
      this.attempt = 0;
      for (const listener of this.readyListeners) listener();
    };
    if (left === 0) {
      becomeReady();
      return;
    }
    for (const text of setup) {
      this.pending.push({
        done: (error, reply) => {
          // ROLE answers an array: a former master the sentinels demoted is not one to use
          if (Array.isArray(reply) && reply[0] !== "master")
            error = new Error(`Redis is a ${String(reply[0])}, not the master`);
          if (error) socket.destroy(error);
          else if (--left === 0) becomeReady();
        },
      });
      socket.write(text);
    }
  }

  private readonly deliver = (value: RespValue): void => {
    const entry = this.pending.next();
    if (entry === undefined) throw new Error("RESP: a reply without a command");
    if (value instanceof ReplyError) {
      // SCRIPT FLUSH: send the text once. Its answer comes after those of calls sent since,
      // which Redis may already have run: each call stays atomic, only their order changes.
      if (entry.retry && value.message.startsWith("NOSCRIPT")) {
        const { script, keys, args } = entry.retry;
        this.send(scriptCommand("EVAL", script.lua, keys, args, this.prefix), { done: entry.done });
        return;
      }
      entry.done(value);
      // a master demoted under us (failover): reconnect, through the sentinels
      if (value.message.startsWith("READONLY")) this.socket?.destroy(value);
      return;
    }
    entry.done(null, value);
  };

  private closed(socket: Socket): void {
    if (socket !== this.socket) return;
    this.socket = null;
    this.reader.reset();
    const failed = this.pending.drain();
    const ended = this.status === "ended";
    if (!ended) this.status = "closed";
    const error = new Error("the Redis connection closed");
    for (const entry of failed) entry.done(error);
    if (!ended) this.retryLater();
  }

  /** +switch-master: drop the connection to the old master, or stop waiting to retry. */
  private masterChanged(): void {
    if (this.socket) this.socket.destroy(new Error("the Redis master changed (+switch-master)"));
    else if (this.status === "closed") {
      if (this.timer) clearTimeout(this.timer);
      this.attempt = 0;
      this.connect();
    }
  }

  private retryLater(): void {
    this.status = "closed";
    this.attempt++;
    this.timer = setTimeout(() => this.connect(), Math.min(50 * this.attempt, 500));
  }
}
