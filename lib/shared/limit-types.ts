// Types shared by the configuration model, the compiler and the limiter engine. Isomorphic:
// no server imports here.

import type { CalendarPeriod } from "@/lib/shared/calendar";

export const ALGORITHMS = [
  "token_bucket",
  "leaky_bucket",
  "gcra",
  "fixed_window",
  "sliding_log",
  "sliding_window",
  "concurrency",
  "calendar",
] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

export const LIMIT_BY = ["tenant", "key", "subject"] as const;
export type LimitBy = (typeof LIMIT_BY)[number];

export const ACTIONS = ["reject", "delay"] as const;
export type LimitAction = (typeof ACTIONS)[number];

export const MODES = ["enforce", "shadow"] as const;
export type LimitMode = (typeof MODES)[number];

export const STORE_FAILURE = ["open", "closed"] as const;
export type StoreFailure = (typeof STORE_FAILURE)[number];

export const CONSISTENCY = ["exact", "local"] as const;
export type Consistency = (typeof CONSISTENCY)[number];

/**
 * Algorithms a limit may count locally (consistency: local): their state merges from
 * increments (a window's count, a bucket's level). sliding_log keeps one entry per request,
 * and gcra and leaky_bucket hand out precise slots and waits: copies on several servers
 * would hand out the same slot, so those stay exact (docs/algorithms.md).
 */
export const LOCAL_ALGORITHMS: readonly Algorithm[] = ["fixed_window", "sliding_window", "token_bucket"];

/** syncEvery bounds (ms): below 10 ms the sync costs more than exact checks; past 60 s the error is unbounded in practice. */
export const MIN_SYNC_EVERY_MS = 10;
export const MAX_SYNC_EVERY_MS = 60_000;
export const DEFAULT_SYNC_EVERY_MS = 100;

/**
 * In-flight limits: at most `limit` checks holding a lease at once, each lease released by
 * the caller or expiring `windowMs` (the lease timeout) after it was taken (docs/algorithms.md).
 */
export const LEASE_ALGORITHMS: readonly Algorithm[] = ["concurrency"];

/** Algorithms that may hand out a wait instead of rejecting (docs/algorithms.md, action: delay). */
export const DELAY_ALGORITHMS: readonly Algorithm[] = ["gcra", "leaky_bucket"];

/** The numbers and switches of one fully resolved limit: what the limiter evaluates. */
export interface LimitRule {
  algorithm: Algorithm;
  /** L: units per window, 1..1e9 */
  limit: number;
  /** W in milliseconds, 1 .. 365 d */
  windowMs: number;
  /** B: null means "default" (L) */
  burst: number | null;
  action: LimitAction;
  /** with action "delay": the longest wait handed out; null = no wait beyond capacity is allowed */
  maxDelayMs: number | null;
  mode: LimitMode;
  onStoreFailure: StoreFailure;
  /** after the limit denies, its identity is blocked (docs/algorithms.md, Penalties); absent: none */
  penalty?: Penalty;
  /** algorithm calendar only: the period and the time zone its bounds are in (windowMs is then its nominal length) */
  calendar?: CalendarRule;
}

/** A calendar quota's period: a day, an ISO week or a month in an IANA time zone. */
export interface CalendarRule {
  period: CalendarPeriod;
  timeZone: string;
}

/**
 * A penalty, durations in ms: a denial by the limit blocks its identity for blockMs; a
 * denial less than windowMs after the one that set the previous block blocks for that
 * block's length times grow (rounded down), at most maxMs. grow 1: always blockMs.
 */
export interface Penalty {
  blockMs: number;
  grow: number;
  maxMs: number;
  windowMs: number;
}

/** Algorithms a penalty may follow: the sliding log keeps its state outside the owner's key. */
export const PENALTY_ALGORITHMS: readonly Algorithm[] = [
  "fixed_window",
  "sliding_window",
  "token_bucket",
  "leaky_bucket",
  "gcra",
];

/** grow bounds: a factor with at most two decimals, so doubles hold every product exactly enough. */
export const MAX_PENALTY_GROW = 100;

/** What an unset field means once a limit is compiled (also shown by the editor). */
export const LIMIT_DEFAULTS = {
  action: "reject",
  mode: "enforce",
  onStoreFailure: "open",
} as const satisfies {
  action: LimitAction;
  mode: LimitMode;
  onStoreFailure: StoreFailure;
};
