import "server-only";
import { latestPublished } from "@/lib/data/config-change";
import { configKeys } from "@/lib/shared/redis-keys";
import type { RedisClient } from "@/lib/redis";
import { ConfigHealer } from "@/lib/enforce/config-healer";
import { countersResetChannel } from "@/lib/enforce/counter-signals";
import { buildIndex, emptyIndex, parsePublished, type ConfigIndex } from "@/lib/enforce/config-index";

// Each server's copy of the published configuration. It swaps in a new version on the
// pub/sub message (fast path, well under 1 s) and also polls the version key every pollMs,
// so a lost message costs at most one poll interval. When Redis holds no version or an older
// one than this server already enforces (FLUSHALL, restart), the healer republishes from
// PostgreSQL at once; a slower periodic heal catches a publish that failed while Redis was
// down. Versions only move forward. Checks read `current` and never wait on any of this.
// Temporary overrides start and end between versions: a timer set for the index's next
// start or end rebuilds it from the same version then (listeners hear of it as of a new
// version: every cache built on the old index is dropped).

export interface HolderOptions {
  client: RedisClient;
  subscriber: RedisClient;
  prefix: string;
  pollMs: number;
  /** how often one server checks PostgreSQL for a newer version than Redis has */
  reconcileMs: number;
}

const withinMs = (work: Promise<void>, ms: number): Promise<void> =>
  Promise.race([work, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);

export type VersionListener = (index: ConfigIndex) => void;

/** An admin reset (counters start again from zero) or Redis losing its data (what servers
 * still hold in memory, local limits' counts, is worth pushing back). */
export type CountersResetCause = "admin" | "lost";

export class ConfigHolder {
  current: ConfigIndex = emptyIndex();
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
    this.healer = new ConfigHealer(options.client, `${options.prefix}{sluice:config}:heal-lease`, 2_000);
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
    subscriber.on("message", (channel: string) => {
      if (channel === this.keys.channel) void this.refresh();
      else if (channel === this.resetChannel) this.countersReset("admin");
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
    let version: number;
    try {
      const text = await client.get(this.keys.version);
      version = text === null ? 0 : Number(text);
    } catch {
      return; // Redis unreachable: keep enforcing what we hold
    }
    if (version < this.current.version || version === 0) {
      // Redis lost its data (FLUSHALL, restart without persistence): counters went too.
      if (this.current.version > 0) this.countersReset("lost");
      void this.healer.heal();
      return;
    }
    if (version === this.current.version) return;
    try {
      const text = await client.get(this.keys.snapshot);
      if (text !== null) this.swap(parsePublished(text), "redis");
    } catch (error) {
      console.warn(`[sluice] could not load config version ${version}: ${(error as Error).message}`);
    }
  }

  private countersReset(cause: CountersResetCause): void {
    for (const listener of this.resetListeners) listener(cause);
  }

  /** Start-up only (Redis down or empty): PostgreSQL holds every version. */
  private async loadFromDatabase(): Promise<void> {
    try {
      const latest = await latestPublished();
      if (latest) this.swap(parsePublished(latest.snapshot), "database");
    } catch (error) {
      console.warn(`[sluice] no config in Redis and PostgreSQL unreachable: ${(error as Error).message}`);
    }
  }

  private swap(config: ReturnType<typeof parsePublished>, source: string): void {
    if (config.version <= this.current.version) return;
    console.log(`[sluice] enforcing config version ${config.version} (from ${source})`);
    this.install(buildIndex(config));
  }

  private install(index: ConfigIndex): void {
    this.current = index;
    for (const listener of this.listeners) listener(index);
    this.scheduleOverrides();
  }

  /** Rebuilds the index at its next override start or end; a timer, so no check waits on it. */
  private scheduleOverrides(): void {
    if (this.overrideTimer !== null) clearTimeout(this.overrideTimer);
    this.overrideTimer = null;
    const at = this.current.nextChangeAt;
    if (at === null) return;
    // setTimeout waits at most ~24.8 days: longer waits are taken a day at a time
    const delay = Math.min(Math.max(0, at - Date.now()), 86_400_000);
    this.overrideTimer = setTimeout(() => {
      this.overrideTimer = null;
      const { published } = this.current;
      // a timer fired a hair early rebuilds the same set and waits again for the rest
      this.install(buildIndex(published, Date.now()));
      console.log(`[sluice] overrides re-applied to config version ${published.version}`);
    }, delay);
    this.overrideTimer.unref();
  }
}
