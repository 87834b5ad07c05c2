import "server-only";
import { runScript } from "@/lib/shared/redis/ioredis-scripts";
import { scriptOf } from "@/lib/shared/redis/lua-files";
import type { RedisClient } from "@/lib/shared/redis/redis";
import type { JobKeys } from "@/lib/usage/keys";

// The rollup runs on one server at a time: whoever holds the lease (SET NX PX, renewed by
// its owner). Each acquisition takes a new fencing number from a counter, so the token
// "<owner>|<fence>" of a holder that paused past its lease never matches again; every
// write of the job checks the token right before it commits (see rollup-writer.ts).

// The scripts are in lua/, sent as EVALSHA like every other (lib/limiter/lua-files.ts).
const acquireScript = scriptOf("lease-acquire.lua");
const setIfHolderScript = scriptOf("lease-set-if-holder.lua");
const releaseScript = scriptOf("lease-release.lua");

export class RollupLease {
  private token: string | null = null;

  constructor(
    private readonly client: RedisClient,
    private readonly keys: Pick<JobKeys, "lease" | "fence">,
    /** unique per process and job instance */
    private readonly owner: string,
    private readonly ttlMs: number,
  ) {
    if (owner.includes("|")) throw new RangeError("lease owner must not contain |");
  }

  /** Takes the lease when free, renews it when ours; false when another server holds it. */
  async acquire(): Promise<boolean> {
    const keys = [this.keys.lease, this.keys.fence];
    const fence = Number(await runScript(this.client, acquireScript(), keys, [this.owner, this.ttlMs]));
    this.token = fence > 0 ? `${this.owner}|${fence}` : null;
    return this.token !== null;
  }

  /** Whether our token is still the lease's value (checked inside each write). */
  async held(): Promise<boolean> {
    if (!this.token) return false;
    return (await this.client.get(this.keys.lease)) === this.token;
  }

  /** Sets a job key (a watermark) only while we hold the lease. */
  async setIfHolder(key: string, value: string): Promise<boolean> {
    if (!this.token) return false;
    const keys = [this.keys.lease, key];
    return Number(await runScript(this.client, setIfHolderScript(), keys, [this.token, value])) === 1;
  }

  async release(): Promise<void> {
    if (this.token) await runScript(this.client, releaseScript(), [this.keys.lease], [this.token]);
    this.token = null;
  }

  get fenceToken(): string | null {
    return this.token;
  }
}
