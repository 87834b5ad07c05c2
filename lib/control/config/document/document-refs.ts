// The names and references of a document, read from the parts that parse even when others
// do not, so that one answer reports a bad window and an unknown plan together. An entry
// that cannot be read at all is null (it keeps its index, so error paths stay right), and
// a name that breaks its rule is null (its schema error is reported already).

import { nameSchema, routePatternSchema } from "./field-schemas";

export type Sparse<T> = readonly (T | null)[];

export interface LimitRef {
  name: string | null;
  route?: string | undefined;
}
export interface RouteRef {
  pattern: string;
  limits: Sparse<LimitRef>;
}
/** a plan or a key: a name with limits */
export interface NamedRef {
  name: string | null;
  limits: Sparse<LimitRef>;
}
export interface TenantRef {
  slug: string | null;
  /** null when it breaks the name rule, or when the document's plans cannot be read */
  plan: string | null;
  limits: Sparse<LimitRef>;
  routes: Sparse<RouteRef>;
  keys: Sparse<NamedRef>;
}
/** A ConfigDocument is one of these, with nothing missing. */
export interface DocumentRefs {
  plans?: Sparse<NamedRef> | undefined;
  routes?: Sparse<RouteRef> | undefined;
  tenants?: Sparse<TenantRef> | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const field = (value: unknown, key: string): unknown => (isRecord(value) ? value[key] : undefined);
const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
const nameOf = (value: unknown): string | null =>
  nameSchema.safeParse(value).success ? (value as string) : null;
const patternOf = (value: unknown): string | null =>
  routePatternSchema.safeParse(value).success ? (value as string) : null;

function limitRef(value: unknown): LimitRef | null {
  if (!isRecord(value)) return null;
  const route = value.route === undefined ? undefined : patternOf(value.route);
  // A `route:` that is not a pattern is a schema error; it names no route to look up.
  if (route === null) return { name: nameOf(value.name) };
  return route === undefined ? { name: nameOf(value.name) } : { name: nameOf(value.name), route };
}

const limitRefs = (value: unknown): Sparse<LimitRef> => list(value).map(limitRef);

function routeRef(value: unknown): RouteRef | null {
  const pattern = patternOf(field(value, "pattern"));
  return pattern === null ? null : { pattern, limits: limitRefs(field(value, "limits")) };
}

function namedRef(value: unknown): NamedRef | null {
  return isRecord(value) ? { name: nameOf(value.name), limits: limitRefs(value.limits) } : null;
}

function tenantRef(value: unknown, plansReadable: boolean): TenantRef | null {
  if (!isRecord(value)) return null;
  return {
    slug: nameOf(value.slug),
    plan: plansReadable ? nameOf(value.plan) : null,
    limits: limitRefs(value.limits),
    routes: list(value.routes).map(routeRef),
    keys: list(value.keys).map(namedRef),
  };
}

/** What can be read of a document that failed its schema (anything else: nothing). */
export function readDocumentRefs(input: unknown): DocumentRefs {
  if (!isRecord(input)) return {};
  const { plans, routes, tenants } = input;
  const planRefs = Array.isArray(plans) ? plans.map(namedRef) : undefined;
  // Unless every plan's name reads, which plans exist is unknown: no plan is "unknown" then.
  const plansReadable = plans === undefined || (planRefs?.every((p) => p?.name != null) ?? false);
  return {
    plans: planRefs,
    // Routes that cannot be read: treat them as absent (the current ones) rather than none.
    routes: Array.isArray(routes) ? routes.map(routeRef) : undefined,
    tenants: Array.isArray(tenants) ? tenants.map((t) => tenantRef(t, plansReadable)) : undefined,
  };
}
