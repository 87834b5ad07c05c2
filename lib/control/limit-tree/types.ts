// The limit tree as the dashboard draws it (types only: client components import this).
// plan -> tenant -> keys -> routes, subject limits summarized; every node with the live
// reading of its limits, the rejections its limits denied in the selected range, and those
// of the checks through it.

import type { LimitOverride } from "@/lib/control/counters/check-now";
import type { Algorithm, LimitBy, LimitMode } from "@/lib/shared/limit-types";
import type { CalendarPeriod } from "@/lib/shared/calendar";

/** Where a node sits in the hierarchy; `subjects` summarizes a set of `by: subject` limits. */
export type TreeLevel = "plan" | "tenant" | "route" | "key" | "key-route" | "subjects";

/** One step of how a limit got its values ("plan free sets limit, window"). */
export interface SourceStep {
  level: "plan" | "tenant" | "key" | "route";
  source: string;
  fields: string[];
}

/** One limit of a node, read from its counter now. */
export interface LimitReading {
  name: string;
  by: LimitBy;
  route: string | null;
  algorithm: Algorithm;
  mode: LimitMode;
  /** in force now: a temporary override's value while one applies (0 blocks) */
  limit: number;
  windowMs: number;
  burst: number | null;
  /** a calendar quota: its period, zone and the end of the current period (epoch ms, Redis time) */
  calendar?: { period: CalendarPeriod; timeZone: string; resetsAt: number };
  /**
   * A penalty's block in force on this owner (docs/algorithms.md, Penalties): when it ends
   * (epoch ms, Redis time) and ms left; absent when the limit has no penalty or no block runs.
   */
  penaltyBlock?: { endsAt: number; leftMs: number };
  /** units used in its current window, or the bucket's level (may be fractional) */
  used: number;
  /** the capacity `used` is measured against (burst for buckets, else limit) */
  capacity: number;
  remaining: number;
  /** used / capacity, 0..1 (a blocked limit: 1; a disabled one: 0, and left out of its node's) */
  utilization: number;
  /** the temporary override in force on it ("disabled": not evaluated now), or null */
  override: LimitOverride | null;
  /** the level its values came from last: plan, tenant override, key override, route */
  from: SourceStep["level"];
  provenance: SourceStep[];
}

export interface TreeNode {
  /** stable within a view: "plan", "tenant", "key:<name>", "route:<pattern>", ... */
  id: string;
  level: TreeLevel;
  label: string;
  /** indentation in the tree (0 = plan) */
  depth: number;
  /** the highest utilization among its enforce limits (shadow ones when it has none); null without limits */
  utilization: number | null;
  /**
   * rejections its own limits denied (the first enforce limit an answer names as denying),
   * of the view's checks: the whole tenant's, one key's or one route's
   */
  rejected: number;
  /** rejections of the view's checks through it, whatever denied them (lists, other levels) */
  checksRejected: number;
  limits: LimitReading[];
  /**
   * keys and routes of a key: the limit on its chain (plan -> tenant -> key -> route) with
   * the smallest share left (binds.ts); `share` is remaining / capacity, 0..1
   */
  binding: {
    level: SourceStep["level"] | "subject";
    limit: string;
    route: string | null;
    remaining: number;
    share: number;
  } | null;
  /**
   * subjects summary: how many of the active subjects are at one of their limits, and how
   * many of them the deny list denies (counted apart: they meet no limit) or an allow list holds
   */
  subjects: { atLimit: number; active: number; denied: number; allowed: number } | null;
  /** what a click on it opens (a key: its routes; a route: the keys using it most) */
  drill: { key?: string; route?: string } | null;
}

export interface LimitTreeData {
  tenant: string;
  plan: string;
  configVersion: number;
  view: { key: string | null; route: string | null };
  range: string;
  nodes: TreeNode[];
  /** keys of the tenant, and those not drawn (the least utilized) */
  keys: { total: number; hidden: number; hiddenMaxUtilization: number };
  /** the start of the span whose rejections are told apart by limit (epoch ms): the range
   * (a long one from the start of its first hour, as its other counts), or later where the
   * stored per-limit counts do not reach back (before they were stored, past retention) */
  attributedSince: number;
  /** ms the counter read took (one Redis call) */
  counterReadMs: number;
  generatedAt: number;
}
