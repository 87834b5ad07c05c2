import "server-only";

// What the limiter needs of a Redis connection on the check path: run a script (by SHA,
// sending its text when Redis does not know it) and get its reply through a callback. Two
// implementations: LeanRedis (lean-redis/, a single Redis) and ioredis (ioredis-scripts.ts,
// Redis Cluster and the control plane).

export interface Script {
  lua: string;
  sha: string;
}

export type ReplyCallback = (error: Error | null, reply?: unknown) => void;

export interface ScriptClient {
  /** a call would be sent now; while false, callers answer without Redis */
  readonly ready: boolean;
  /** KEYS and ARGV of the script; `done` is called once, with the reply or the error */
  run(script: Script, keys: readonly string[], args: readonly (string | number)[], done: ReplyCallback): void;
}

/** A check-path connection as the limiter store uses it: scripts, reconnections and probes. */
export interface HotClient extends ScriptClient {
  /** called on every (re)connection */
  onReady(listener: () => void): void;
  ping(done: ReplyCallback): void;
  disconnect(): void;
}
