import { z } from "zod";
import {
  field,
  listParams,
  type ListParams,
  type ParamError,
  type RawParams,
} from "@/lib/control/lists/list-params";
import { isRangeId, RANGE_IDS, type RangeId } from "@/lib/usage/ranges";

// A tenant's keys list's address: search (name or prefix), a state filter, the traffic range,
// paging and a sort on every column, the traffic columns included (a busy tenant has
// thousands of keys, so the list is paged on the server).

export const KEY_SORTS = {
  name: "asc",
  prefix: "asc",
  state: "asc",
  created: "desc",
  expires: "asc",
  used: "desc",
  checks: "desc",
  rejected: "desc",
  rate: "desc",
} as const;

export type KeySort = keyof typeof KEY_SORTS;

/** the columns read from usage, not from the keys' rows */
export const TRAFFIC_SORTS: readonly KeySort[] = ["checks", "rejected", "rate"];

export const KEY_STATES = ["active", "expired", "revoked"] as const;
export type KeyState = (typeof KEY_STATES)[number];

export interface KeyListQuery extends ListParams<KeySort> {
  state?: KeyState;
  range: RangeId;
}

const State = z.enum(KEY_STATES, { error: `state must be one of ${KEY_STATES.join(", ")}` });
const Range = z
  .string()
  .refine((s): s is RangeId => isRangeId(s), `range must be one of ${RANGE_IDS.join(", ")}`)
  .transform((s) => s as RangeId);

export function parseKeyListQuery(params: RawParams): { query: KeyListQuery; errors: ParamError[] } {
  const errors: ParamError[] = [];
  const base = listParams(params, KEY_SORTS, "name", errors);
  const state = field<KeyState | undefined>(params, "state", State, undefined, errors);
  const range = field<RangeId>(params, "range", Range, "1h", errors);
  return { query: { ...base, range, ...(state === undefined ? {} : { state }) }, errors };
}
