// The whole declarative document of docs/configuration.md: plans, global routes, tenants with their
// routes, limits and keys. Every object is strict: a misspelt field is an error, never
// silently ignored.

import { z } from "zod";
import { HEADER_FLAVOURS, TENANT_STATUSES, type TenantStatus } from "@/lib/shared/config-terms";

import { displayNameSchema, nameSchema, routePatternSchema, timeZoneSchema } from "./field-schemas";
import { limitSchema } from "./limit-schema";
import { ipSubjectsSchema, listsSchema } from "./list-schema";
import { overrideDocSchema } from "./override-schema";
import { serviceLimitSchema } from "../../../check/published/service-limit-schema";

export { TENANT_STATUSES, type TenantStatus };

const limitList = z.array(limitSchema).default([]);

export const planSchema = z.strictObject({
  name: nameSchema,
  limits: limitList,
  /** checks a second per check front for each tenant on the plan; left out: no service limit */
  service: serviceLimitSchema.optional(),
});

export const routeSchema = z.strictObject({ pattern: routePatternSchema, limits: limitList });

/** Keys are credentials made elsewhere; a document only names one to attach limits to. */
export const keySchema = z.strictObject({ name: nameSchema, limits: limitList });

export const tenantSchema = z.strictObject({
  slug: nameSchema,
  /** display name; the slug when left out */
  name: displayNameSchema.optional(),
  plan: nameSchema,
  status: z.enum(TENANT_STATUSES, { error: "must be active or suspended" }).default("active"),
  /** the RateLimit header flavour of its check answers; left out: draft-11 */
  headers: z.enum(HEADER_FLAVOURS, { error: `must be one of ${HEADER_FLAVOURS.join(", ")}` }).optional(),
  /** the time zone its calendar quotas reset in (a limit's own timeZone wins); left out: UTC */
  timeZone: timeZoneSchema.optional(),
  limits: limitList,
  routes: z.array(routeSchema).default([]),
  keys: z.array(keySchema).default([]),
  /** its allow and deny lists of subjects, addresses and ranges; left out: none */
  lists: listsSchema.optional(),
  /** count IP subjects by network (IPv6 /64 unless set); left out: by address */
  ipSubjects: ipSubjectsSchema.optional(),
});

// plans and routes stay undefined when left out: an import then leaves them as they are
// (docs/configuration.md), which is different from "there are none".
export const documentSchema = z.strictObject({
  plans: z.array(planSchema).optional(),
  routes: z.array(routeSchema).optional(),
  tenants: z.array(tenantSchema).optional(),
  /** temporary overrides in force or waiting (docs/overrides.md); left out: left as they are */
  overrides: z.array(overrideDocSchema).max(1_000, { error: "must hold at most 1000 overrides" }).optional(),
  /** the operator's global allow and deny lists, met by every tenant; left out: left as they are */
  lists: listsSchema.optional(),
});

export type ConfigDocument = z.output<typeof documentSchema>;
export type ConfigDocumentInput = z.input<typeof documentSchema>;
export type PlanDoc = z.output<typeof planSchema>;
export type RouteDoc = z.output<typeof routeSchema>;
export type KeyDoc = z.output<typeof keySchema>;
export type TenantDoc = z.output<typeof tenantSchema>;
