import type { RangeId } from "@/lib/usage/ranges";
import type { BreakdownRow, LimitUtilization, Offender, UsagePoint, UsageSource } from "@/lib/usage/types";

/** One limit as a line over traffic: its sustained rate in checks per bucket. */
export interface LimitLine {
  limit: string;
  perStep: number;
  limitValue: number;
  windowMs: number;
}

// What the usage page and its live endpoint send the browser: everything already shaped
// for the charts (types only, so client components may import it).

export interface UsageDashboardData {
  /** null on the overview (every tenant the user sees) */
  tenant: string | null;
  key: string | null;
  route: string | null;
  range: RangeId;
  /** a custom range (from/to in the URL), or null for the preset range */
  window: { from: number; to: number } | null;
  stepMs: number;
  source: UsageSource;
  from: number;
  to: number;
  series: UsagePoint[];
  /** by tenant on the overview, by key for a tenant, by route below a key */
  breakdown: { by: "tenant" | "key" | "route"; rows: BreakdownRow[] };
  /** by route for a tenant (beside the key breakdown); empty elsewhere */
  byRoute: BreakdownRow[];
  offenders: Offender[];
  /** "filter": only rejections on the drilled-down key and/or route */
  offendersOf: "tenant" | "filter";
  /** Hottest limits: now, read from the live counters (lib/control/counters/hottest-now.ts) */
  hottest: LimitUtilization[];
  /** the counters could not be read (Redis): Hottest limits says so */
  hottestUnavailable: boolean;
  /** limits drawn over the traffic of one key or route; empty elsewhere */
  limitLines: LimitLine[];
  /** the period of the same length just before, when asked for (compare=1); else null */
  previous: PreviousPeriod | null;
  /** the tenant's limits in shadow mode; null on the overview (many tenants) */
  shadowLimits: number | null;
  /** the tenant has a concurrency limit: the page draws its leases (acquired, released, expired) */
  leaseChart: boolean;
  /** "data starts here" on the time charts: no usage can exist before it; null: none in range */
  dataStartsAt: number | null;
  generatedAt: number;
}

/** The previous period of a usage view, for the comparison toggle. */
export interface PreviousPeriod {
  from: number;
  to: number;
  /** its resolution: the current one, or 1 min when it is older than the per-second data */
  stepMs: number;
  /** per bucket of the current series (same order), the checks decided a period earlier */
  checks: number[];
  totals: { checks: number; rejected: number };
}
