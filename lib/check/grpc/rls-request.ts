import "server-only";
import { z } from "zod";
import type { CheckInput } from "@/lib/check/types";
import { DESCRIPTOR_METHOD, descriptorPath, descriptorSubject, domainSlug } from "@sluice/client/envoy";

// A ShouldRateLimit request (as rls-codec.ts decodes it) turned into Sluice checks, one per
// descriptor in order, or the first error naming the field (answered INVALID_ARGUMENT). The
// mapping is the client package's, which `sluice import-envoy` writes route patterns by.
// hits_addend is the cost: a descriptor's own when set, else the request's (0 there means 1,
// as in Envoy); a descriptor's 0 asks without counting (a dry run of one unit).

/** Most descriptors one request may carry: one unit of the fair gate (its quantum). */
export const MAX_DESCRIPTORS = 32;
const MAX_ENTRIES = 16;
const MAX_COST = 1_000_000;
/** docs/api.md: a check's route is at most 2048 characters */
const MAX_ROUTE = 2048;

const Entry = z.object({
  key: z.string().min(1, "must not be empty"),
  value: z.string().optional(),
});

const Descriptor = z.object({
  entries: z.array(Entry).min(1, "must have at least one entry").max(MAX_ENTRIES),
  // a per-request limit override: not supported, the configured limits apply (docs/envoy.md)
  limit: z.unknown().optional(),
  hits_addend: z
    .object({ value: z.number().int().min(0).max(MAX_COST, `must be at most ${MAX_COST}`).optional() })
    .optional(),
});

const Request = z.object({
  domain: z.string().min(1, "required: the tenant's domain"),
  descriptors: z
    .array(Descriptor)
    .min(1, "must have at least one descriptor")
    .max(MAX_DESCRIPTORS, `must have at most ${MAX_DESCRIPTORS} descriptors`),
  hits_addend: z.number().int().min(0).max(MAX_COST, `must be at most ${MAX_COST}`).optional(),
});

export type RlsRequest = z.infer<typeof Request>;

export interface RlsChecks {
  /** the tenant the domain names */
  tenant: string;
  checks: CheckInput[];
}

export type ParsedRls = { ok: true; value: RlsChecks } | { ok: false; message: string };

function fieldPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const part of path)
    text += typeof part === "number" ? `[${part}]` : `${text ? "." : ""}${String(part)}`;
  return text;
}

export function parseRlsRequest(request: unknown): ParsedRls {
  const parsed = Request.safeParse(request);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      message: issue ? `${fieldPath(issue.path) || "request"}: ${issue.message}` : "bad request",
    };
  }
  const { domain, descriptors } = parsed.data;
  const tenant = domainSlug(domain);
  if (tenant === null)
    return {
      ok: false,
      message: `domain: "${domain.slice(0, 80)}" names no tenant (1-63 of a-z 0-9 - once lower-cased, other characters read as "-", with a letter or digit)`,
    };
  const requestCost = Math.max(1, parsed.data.hits_addend ?? 0);
  const checks: CheckInput[] = [];
  for (let i = 0; i < descriptors.length; i++) {
    const descriptor = descriptors[i] as (typeof descriptors)[number];
    const entries = descriptor.entries.map((entry) => ({ key: entry.key, value: entry.value ?? "" }));
    const path = descriptorPath(entries);
    const route = `${DESCRIPTOR_METHOD} ${path}`;
    if (route.length > MAX_ROUTE)
      return {
        ok: false,
        message: `descriptors[${i}].entries: longer than ${MAX_ROUTE} characters as a route`,
      };
    const own = descriptor.hits_addend === undefined ? null : (descriptor.hits_addend.value ?? 0);
    checks.push({
      apiKey: null,
      tenant,
      key: null,
      route,
      subject: descriptorSubject(path),
      cost: own === null ? requestCost : Math.max(1, own),
      dryRun: own === 0,
    });
  }
  return { ok: true, value: { tenant, checks } };
}
