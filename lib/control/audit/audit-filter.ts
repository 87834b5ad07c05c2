import { z } from "zod";
import { NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";

// The audit page's filters, from its URL: tenant, actor (part of the label), kind (the
// action's first word: key, tenant, limit...), a time range, and the page's cursor. Bad
// input names the field; isomorphic so the page and the form share it.

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "must be a date like 2026-11-24" })
  .refine((d) => Number.isFinite(Date.parse(`${d}T00:00:00Z`)), { error: "must be a real date" });

export const AuditFilter = z.strictObject({
  tenant: z.string().regex(NAME_PATTERN, { error: NAME_RULE }).optional(),
  actor: z.string().max(200, { error: "must be at most 200 characters" }).optional(),
  kind: z
    .string()
    .regex(/^[a-z-]{1,40}$/, { error: "must be a kind such as key, tenant or member" })
    .optional(),
  from: day.optional(),
  to: day.optional(),
  before: z
    .string()
    .regex(/^\d{1,19}$/, { error: "must be an entry id from a previous page" })
    .optional(),
});
export type AuditFilter = z.infer<typeof AuditFilter>;

export const AUDIT_PAGE_SIZE = 50;

/** Empty fields of a submitted form are no filter. */
export function parseAuditFilter(raw: Record<string, string | string[] | undefined>) {
  const plain: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (typeof v === "string" && v.trim() !== "") plain[k] = v.trim();
  return AuditFilter.safeParse(plain);
}

/** The URL of the same filtered log at another cursor. */
export function auditHref(base: string, filter: AuditFilter, before: string | null): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...filter, before: before ?? undefined })) if (v) params.set(k, v);
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}
