import { z } from "zod";
import {
  field,
  listParams,
  type ListParams,
  type ParamError,
  type RawParams,
} from "@/lib/control/lists/list-params";

// The tenants list's address: search (slug or name), plan and status filters, paging and a
// sort on every column, Traffic included (read from the 15-minute totals the rollup keeps).

export const TENANT_SORTS = {
  tenant: "asc",
  plan: "asc",
  status: "asc",
  traffic: "desc",
  rejected: "desc",
  keys: "desc",
  role: "asc",
} as const;

export type TenantSort = keyof typeof TENANT_SORTS;

export interface TenantListQuery extends ListParams<TenantSort> {
  plan?: string;
  status?: "active" | "suspended";
}

const Plan = z.string().max(100, "plan is at most 100 characters");
const Status = z.enum(["active", "suspended"], { error: "status must be active or suspended" });

export function parseTenantListQuery(params: RawParams): { query: TenantListQuery; errors: ParamError[] } {
  const errors: ParamError[] = [];
  const base = listParams(params, TENANT_SORTS, "tenant", errors);
  const plan = field<string | undefined>(params, "plan", Plan, undefined, errors);
  const status = field<"active" | "suspended" | undefined>(params, "status", Status, undefined, errors);
  return {
    query: { ...base, ...(plan === undefined ? {} : { plan }), ...(status === undefined ? {} : { status }) },
    errors,
  };
}
