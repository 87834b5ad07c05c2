import "server-only";
import type { RedisClient } from "@/lib/redis";
import type { JobKeys } from "@/lib/usage/keys";

// The rollup runs on one server at a time: whoever holds the lease (SET NX PX, renewed by
// its owner). Each acquisition takes a new fencing number from a counter, so the token
// "<owner>|<fence>" of a holder that paused past its lease never matches again; every
// write of the job checks the token right before it commits (see rollup-writer.ts).

const ACQUIRE = `
local current = redis.call('GET', KEYS[1])
if current then
  local owner, fence = string.match(current, '^(.*)|(%d+)$')
  if owner == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return tonumber(fence)
  end
  return 0
end
local fence = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. fence, 'PX', ARGV[2])
return fence`;

const SET_IF_HOLDER = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
return 1`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

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
    const fence = Number(await this.client.eval(ACQUIRE, 2, this.keys.lease, this.keys.fence, this.owner, this.ttlMs));
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
    return Number(await this.client.eval(SET_IF_HOLDER, 2, this.keys.lease, key, this.token, value)) === 1;
  }

  async release(): Promise<void> {
    if (this.token) await this.client.eval(RELEASE, 1, this.keys.lease, this.token);
    this.token = null;
  }

  get fenceToken(): string | null {
    return this.token;
  }
}
