import "server-only";
import { randomUUID } from "node:crypto";
import type { RedisClient } from "@/lib/shared/redis/redis";

// Republishes the configuration from PostgreSQL when Redis lost it or holds an old one (a
// FLUSHALL, a Redis restart without persistence, a publish that failed while Redis was
// down). Every server runs one, but a short Redis lease (SET NX PX) lets only one of them
// query PostgreSQL at a time. Never on the check path: it runs from the holder's timers.

export type Republish = (client: RedisClient) => Promise<number>;

export class ConfigHealer {
  private running: Promise<void> | null = null;
  private readonly owner = randomUUID();
  private lastLog = 0;

  constructor(
    private readonly client: RedisClient,
    private readonly leaseKey: string,
    private readonly leaseMs: number,
    private readonly republish: Republish,
  ) {}

  /** One attempt; concurrent calls share it. Errors are logged (at most every 10 s), never thrown. */
  heal(): Promise<void> {
    this.running ??= this.attempt().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async attempt(): Promise<void> {
    try {
      const lease = await this.client.set(this.leaseKey, this.owner, "PX", this.leaseMs, "NX");
      if (lease !== "OK") return; // another server is on it
      await this.republish(this.client);
    } catch (error) {
      const now = Date.now();
      if (now - this.lastLog > 10_000) {
        this.lastLog = now;
        console.warn(`[sluice] config heal failed (will retry): ${(error as Error).message}`);
      }
    }
  }
}
