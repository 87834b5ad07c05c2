import "server-only";
import { setImmediate as nextTurn } from "node:timers/promises";
import { configKeys } from "@/lib/shared/redis/redis-keys";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { ConfigHealer, type Republish } from "@/lib/check/config-healer";
import { countersResetChannel, LIFT_MESSAGE } from "@/lib/check/counter-signals";
import type { ConfigIndex } from "@/lib/check/config-index";
import { readChanges, readHead, scanParts, type Position } from "@/lib/check/config-reader";
import { ConfigState, stateOf } from "@/lib/check/config-state";
import type { PublishedConfig } from "@/lib/check/published/published";

// Each server's copy of the published configuration (config-state.ts). On the pub/sub
// message (fast path, well under 1 s), and on a poll every pollMs in case a message was
// lost, it reads the parts published since the sequence it applied and applies them: a
// change costs what it changed. A new epoch (Redis was given the whole again) or a log it
// fell off of makes it read the whole, in chunks, into a fresh state it then swaps in, so
// checks keep reading the old one meanwhile and never wait. When Redis holds nothing or
// less than this server enforces (FLUSHALL, restart), the healer republishes from
// PostgreSQL at once; a slower periodic heal catches a publish that failed while Redis was
// down. Temporary overrides start and end between versions: a timer set for the next start
// or end re-applies them to the tenants that have any.

/**
 * PostgreSQL behind Redis, reached through the control plane's data layer: the process
 * wires it in (server.ts), so that the check path itself imports neither.
 */
export interface ConfigBackstop {
  /** the newest published version, for a start with Redis down or empty */
  latest(): Promise<PublishedConfig | null>;
  /** republishes to Redis what it misses; returns the version Redis then holds */
  republish: Republish;
}

export interface HolderOptions {
  client: RedisClient;
  subscriber: RedisClient;
  prefix: string;
  pollMs: number;
  /** how often one server checks PostgreSQL for a newer version than Redis has */
  reconcileMs: number;
  backstop: ConfigBackstop;
}

const withinMs = (work: Promise<void>, ms: number): Promise<void> =>
  Promise.race([work, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);

/** The tenants a change touched, or null: possibly all (a global part, a whole load). */
export type VersionListener = (index: ConfigIndex, touched: ReadonlySet<string> | null) => void;

/** An admin reset (counters start again from zero) or Redis losing its data (what servers
 * still hold in memory, local limits' counts, is worth pushing back). */
/** admin: a counter reset; lost: Redis lost its data; lift: an operator lifted a penalty's block */
export type CountersResetCause = "admin" | "lost" | "lift";

/** Parts applied per turn of the event loop while a whole is read: a slice, never a stall. */
const WHOLE_SLICE = 250;

export class ConfigHolder {
  private state = new ConfigState();
  /** What checks read (a field, not a getter: it is read on every check): set with each change. */
  current: ConfigIndex = this.state.current;
  private position: Position = { epoch: "", seq: 0 };
  private readonly keys: ReturnType<typeof configKeys>;
  private readonly healer: ConfigHealer;
  private readonly listeners: VersionListener[] = [];
  private readonly resetListeners: Array<(cause: CountersResetCause) => void> = [];
  private readonly resetChannel: string;
  private readonly timers: NodeJS.Timeout[] = [];
  private overrideTimer: NodeJS.Timeout | null = null;
  private refreshing: Promise<void> | null = null;
  private again = false;

  constructor(private readonly options: HolderOptions) {
    this.keys = configKeys(options.prefix);
    this.resetChannel = countersResetChannel(options.prefix);
    this.healer = new ConfigHealer(
      options.client,
      `${options.prefix}{sluice:config}:heal-lease`,
      2_000,
      options.backstop.republish,
    );
  }

  onVersion(listener: VersionListener): void {
    this.listeners.push(listener);
  }

  /** Called when counters may have been cleared (admin reset, or Redis lost its data). */
  onCountersReset(listener: (cause: CountersResetCause) => void): void {
    this.resetListeners.push(listener);
  }

  /** First load (Redis, else PostgreSQL, else empty), then the message, poll and heal loops. */
  async start(): Promise<void> {
    const { subscriber, pollMs, reconcileMs } = this.options;
    subscriber.on("message", (channel: string, message: string) => {
      if (channel === this.keys.channel) void this.refresh();
      else if (channel === this.resetChannel) this.countersReset(message === LIFT_MESSAGE ? "lift" : "admin");
    });
    // Not awaited: with Redis down it would wait for a connection; ioredis subscribes once
    // connected and re-subscribes after every reconnect, and the poll covers the gap.
    subscriber.subscribe(this.keys.channel, this.resetChannel).catch(() => undefined);
    await withinMs(this.refresh(), 3_000);
    if (this.current.version === 0) await this.loadFromDatabase();
    this.timers.push(setInterval(() => void this.refresh(), pollMs));
    this.timers.push(setInterval(() => void this.healer.heal(), reconcileMs));
    for (const timer of this.timers) timer.unref();
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    if (this.overrideTimer !== null) clearTimeout(this.overrideTimer);
    this.overrideTimer = null;
  }

  /** Reads the version key and loads a newer snapshot; heals Redis when it fell behind. */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true; // a message arrived mid-read: read once more afterwards
      return this.refreshing;
    }
    this.refreshing = this.readRedis().finally(() => {
      this.refreshing = null;
      if (this.again) {
        this.again = false;
        void this.refresh();
      }
    });
    return this.refreshing;
  }

  private async readRedis(): Promise<void> {
    const { client } = this.options;
    let reply: Awaited<ReturnType<typeof readChanges>>;
    try {
      reply = await readChanges(client, this.keys, this.position);
    } catch (error) {
      // Redis unreachable (keep enforcing what we hold) or a malformed part (read the whole)
      if (error instanceof SyntaxError || (error as Error).name === "ZodError") await this.loadWhole();
      return;
    }
    if (reply.mode === "whole") return this.loadWhole();
    if (reply.mode === "none" || reply.seq < this.position.seq || reply.mark < this.current.version) {
      // Redis lost its data (FLUSHALL, restart without persistence): counters went too.
      if (this.current.version > 0) this.countersReset("lost");
      void this.healer.heal();
      return;
    }
    if (reply.seq === this.position.seq) return;
    const touched = this.state.apply(reply.changes, reply.mark, Date.now());
    this.position = { epoch: reply.epoch, seq: reply.seq };
    this.announce(touched, "redis");
  }

  /** Reads the whole into a fresh state, in slices, then swaps it in (checks read the old meanwhile). */
  private async loadWhole(): Promise<void> {
    const { client } = this.options;
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const head = await readHead(client, this.keys);
        if (head === null) return;
        const state = new ConfigState();
        for await (const chunk of scanParts(client, this.keys)) {
          for (let start = 0; start < chunk.length; start += WHOLE_SLICE) {
            state.apply(chunk.slice(start, start + WHOLE_SLICE), head.mark, Date.now());
            await nextTurn();
          }
        }
        // what was published while scanning (HSCAN may have returned some parts stale)
        const since = await readChanges(client, this.keys, head);
        if (since.mode !== "parts") continue; // a new whole arrived meanwhile: read it again
        state.apply(since.changes, since.mark, Date.now());
        this.state = state;
        this.position = { epoch: since.epoch, seq: since.seq };
        this.announce(null, "redis, whole");
        return;
      }
    } catch (error) {
      console.warn(`[sluice] could not load the configuration: ${(error as Error).message}`);
    }
  }

  private countersReset(cause: CountersResetCause): void {
    for (const listener of this.resetListeners) listener(cause);
  }

  /** Start-up only (Redis down or empty): PostgreSQL holds every version. */
  private async loadFromDatabase(): Promise<void> {
    try {
      const latest = await this.options.backstop.latest();
      if (latest && latest.version > this.current.version) {
        this.state = stateOf(latest);
        this.announce(null, "database");
      }
    } catch (error) {
      console.warn(`[sluice] no config in Redis and PostgreSQL unreachable: ${(error as Error).message}`);
    }
  }

  private announce(touched: ReadonlySet<string> | null, source: string): void {
    const index = (this.current = this.state.current);
    console.log(`[sluice] enforcing config version ${index.version} (from ${source})`);
    for (const listener of this.listeners) listener(index, touched);
    this.scheduleOverrides();
  }

  /** Re-applies overrides at their next start or end; a timer, so no check waits on it. */
  private scheduleOverrides(): void {
    if (this.overrideTimer !== null) clearTimeout(this.overrideTimer);
    this.overrideTimer = null;
    const at = this.current.nextChangeAt;
    if (at === null) return;
    // setTimeout waits at most ~24.8 days: longer waits are taken a day at a time
    const delay = Math.min(Math.max(0, at - Date.now()), 86_400_000);
    this.overrideTimer = setTimeout(() => {
      this.overrideTimer = null;
      // a timer fired a hair early re-applies the same set and waits again for the rest
      const touched = this.state.reapplyOverrides(Date.now());
      this.current = this.state.current;
      console.log(`[sluice] overrides re-applied to config version ${this.current.version}`);
      for (const listener of this.listeners) listener(this.current, touched);
      this.scheduleOverrides();
    }, delay);
    this.overrideTimer.unref();
  }
}
