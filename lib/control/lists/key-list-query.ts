import { z } from "zod";
import {
  field,
  listParams,
  type ListParams,
  type ParamError,
  type RawParams,
} from "@/lib/control/lists/list-params";

// A tenant's keys list's address: search (name or prefix), a state filter, paging and a sort
// on every column, the traffic columns included (a busy tenant has
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

export interface KeyListQuery<R extends string = string> extends ListParams<KeySort> {
  state?: KeyState;
  /** the traffic columns' range, as the page's `ranges` allow */
  range: R;
}

const State = z.enum(KEY_STATES, { error: `state must be one of ${KEY_STATES.join(", ")}` });
/** `ranges`: the traffic ranges (the usage plane's, handed in: lists sit below it), first the default. */
export function parseKeyListQuery<R extends string>(
  params: RawParams,
  ranges: readonly [R, ...R[]],
): { query: KeyListQuery<R>; errors: ParamError[] } {
  const errors: ParamError[] = [];
  const base = listParams(params, KEY_SORTS, "name", errors);
  const state = field<KeyState | undefined>(params, "state", State, undefined, errors);
  const Range = z
    .string()
    .refine((s) => (ranges as readonly string[]).includes(s), `range must be one of ${ranges.join(", ")}`)
    .transform((s) => s as R);
  const range = field<R>(params, "range", Range, ranges[0], errors);
  return { query: { ...base, range, ...(state === undefined ? {} : { state }) }, errors };
}
