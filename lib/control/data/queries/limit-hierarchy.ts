import "server-only";
import {
  describeOrigin,
  mergeLimitFields,
  resolveTenantInheritance,
  setFieldNames,
  type LimitFieldName,
  type LimitFields,
  type LimitOrigin,
  type LimitSlot,
} from "@/lib/control/config/document";
import type { TenantDetail } from "@/lib/control/data/queries/tenant-detail";

// The tenant page's "effective limits as a hierarchy": for each effective limit, its base
// declaration and the overrides on top (plan -> tenant -> key, and routes), and which
// fields each level set. Pure: computed from a TenantDetail already scoped by tenantDetail().

export type EditScope =
  | { kind: "tenant" }
  | { kind: "tenant-route"; pattern: string }
  | { kind: "key"; key: string }
  | { kind: "plan"; plan: string }
  | { kind: "global-route"; pattern: string };

export interface HierarchyStep {
  level: LimitOrigin["level"];
  source: string;
  fields: LimitFieldName[];
  /** where this declaration lives, for the editor link */
  scope: EditScope;
}

export interface HierarchyRow {
  name: string;
  /** the route pattern it applies to, or null for every check */
  route: string | null;
  effective: LimitFields;
  steps: HierarchyStep[];
  /** own: declared at this level; overridden: inherited with changes here; inherited: untouched */
  state: "own" | "overridden" | "inherited";
  disabled: boolean;
}

export interface LimitHierarchy {
  tenant: HierarchyRow[];
  /** key name -> rows where the key itself declares something */
  keys: { key: string; rows: HierarchyRow[] }[];
}

function scopeOf(origin: LimitOrigin): EditScope {
  switch (origin.level) {
    case "plan":
      return { kind: "plan", plan: origin.plan };
    case "route":
      return origin.scope === "global"
        ? { kind: "global-route", pattern: origin.pattern }
        : { kind: "tenant-route", pattern: origin.pattern };
    case "tenant":
      return { kind: "tenant" };
    case "key":
      return { kind: "key", key: origin.key };
  }
}

function row(slot: LimitSlot, here: (origin: LimitOrigin) => boolean): HierarchyRow {
  const effective = mergeLimitFields(slot.chain.map((d) => d.fields));
  const steps = slot.chain.map((d) => ({
    level: d.origin.level,
    source: describeOrigin(d.origin),
    fields: setFieldNames(d.fields),
    scope: scopeOf(d.origin),
  }));
  const [base, ...overrides] = slot.chain;
  const state =
    base && here(base.origin) ? "own" : overrides.some((d) => here(d.origin)) ? "overridden" : "inherited";
  return {
    name: slot.name,
    route: slot.declaredRoute ?? effective.route ?? null,
    effective,
    steps,
    state,
    disabled: effective.disabled === true,
  };
}

export function limitHierarchy(detail: TenantDetail): LimitHierarchy {
  const inheritance = resolveTenantInheritance(detail.scope, detail.doc, 0);
  const atTenant = (o: LimitOrigin) => o.level === "tenant" || (o.level === "route" && o.scope === "tenant");
  const tenant = inheritance.tenant.map((slot) => row(slot, atTenant));
  const keys = [...inheritance.keys].map(([key, slots]) => ({
    key,
    rows: slots
      .filter((slot) => slot.chain.some((d) => d.origin.level === "key"))
      .map((slot) => row(slot, (o) => o.level === "key")),
  }));
  return { tenant, keys };
}
