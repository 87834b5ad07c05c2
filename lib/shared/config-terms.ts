// Words of the configuration that both planes use: the control plane's document and
// compiler, and the check path that reads what they published. Isomorphic: no server imports.
import type {
  Algorithm,
  Consistency,
  LimitAction,
  LimitBy,
  LimitMode,
  Penalty,
  StoreFailure,
} from "@/lib/shared/limit-types";
import type { CalendarPeriod } from "@/lib/shared/calendar";

/** Tenant, key, plan and route names. */
export const NAME_PATTERN = /^[a-z0-9-]{1,63}$/;
export const NAME_RULE = 'must be 1 to 63 characters of a-z, 0-9 and "-"';

export const TENANT_STATUSES = ["active", "suspended"] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];

/**
 * The RateLimit header fields a tenant's check answers carry (docs/api.md, "Header
 * flavours"): draft-11's structured lists (the default), draft-7's `RateLimit: limit=...`,
 * draft-6's `RateLimit-Limit`/`-Remaining`/`-Reset`, and `X-RateLimit-*` with the reset
 * in seconds (legacy) or as a Unix time in seconds (legacy-epoch).
 */
export const HEADER_FLAVOURS = ["draft-11", "draft-7", "draft-6", "legacy", "legacy-epoch"] as const;
export type HeaderFlavour = (typeof HEADER_FLAVOURS)[number];
export const DEFAULT_HEADER_FLAVOUR: HeaderFlavour = "draft-11";

/** Where a limit declaration sits in the document. */
export type LimitLevel = "plan" | "tenant" | "key" | "route";

export interface LimitFields {
  by?: LimitBy;
  route?: string;
  algorithm?: Algorithm;
  limit?: number;
  windowMs?: number;
  /** algorithm calendar: the period and, when the limit sets its own, the time zone */
  period?: CalendarPeriod;
  timeZone?: string;
  burst?: number;
  action?: LimitAction;
  maxDelayMs?: number;
  mode?: LimitMode;
  onStoreFailure?: StoreFailure;
  consistency?: Consistency;
  syncEveryMs?: number;
  penalty?: Penalty;
  disabled?: boolean;
}

/** Names as a person knows them ("window", not "windowMs"), for provenance and messages. */
export type LimitFieldName =
  Exclude<keyof LimitFields, "windowMs" | "maxDelayMs" | "syncEveryMs"> | "window" | "maxDelay" | "syncEvery";
