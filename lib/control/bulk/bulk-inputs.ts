import { z } from "zod";
import { limitSchema, NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";
import { CreateKeyInput, MAX_KEYS_PER_REQUEST, refineDistinctNames } from "@/lib/control/keys/key-inputs";

// The bodies of the bulk admin calls (docs/api.md, bulk changes). Each list holds 1 to
// 1,000 items, each named at most once, so a typo or a repeat is refused at its index
// (`tenants[3]`, `keys[7].name`) before anything is read.

/** The most targets (tenants or keys) one bulk request may name. */
export const MAX_BULK_ITEMS = 1000;

const name = z.string().regex(NAME_PATTERN, { error: NAME_RULE });

function refineDistinct(list: readonly string[], ctx: z.RefinementCtx): void {
  const seen = new Map<string, number>();
  list.forEach((item, i) => {
    const first = seen.get(item);
    if (first === undefined) seen.set(item, i);
    else ctx.addIssue({ code: "custom", path: [i], message: `${item} is already listed at [${first}]` });
  });
}

function names(what: string) {
  return z
    .array(name, { error: `must be a list of ${what}` })
    .min(1, { error: `list at least one of the ${what}` })
    .max(MAX_BULK_ITEMS, { error: `at most ${MAX_BULK_ITEMS} ${what} in one request` })
    .superRefine(refineDistinct);
}

export const BulkKeysInput = z.strictObject({
  keys: z
    .array(CreateKeyInput, { error: "must be a list of { name, expiresAt? }" })
    .min(1, { error: "list at least one key" })
    .max(MAX_KEYS_PER_REQUEST, { error: `at most ${MAX_KEYS_PER_REQUEST} keys in one request` })
    .superRefine(refineDistinctNames),
});
export type BulkKeysInput = z.infer<typeof BulkKeysInput>;

export const PlanAssignmentInput = z.strictObject({
  plan: name,
  tenants: names("tenant slugs"),
});
export type PlanAssignmentInput = z.infer<typeof PlanAssignmentInput>;

/** `{ limit, tenants }` (tenant-level) or `{ limit, tenant, keys }` (key-level), nothing else. */
export const BulkLimitInput = z
  .strictObject({
    limit: limitSchema,
    tenants: names("tenant slugs").optional(),
    tenant: name.optional(),
    keys: names("key names").optional(),
  })
  .superRefine((input, ctx) => {
    if (input.tenants !== undefined) {
      if (input.tenant !== undefined)
        ctx.addIssue({ code: "custom", path: ["tenant"], message: "give tenants, or tenant with keys" });
      if (input.keys !== undefined)
        ctx.addIssue({ code: "custom", path: ["keys"], message: "keys go with tenant, not tenants" });
      return;
    }
    if (input.tenant === undefined)
      ctx.addIssue({ code: "custom", path: ["tenants"], message: "required (or tenant with keys)" });
    else if (input.keys === undefined)
      ctx.addIssue({ code: "custom", path: ["keys"], message: "required with tenant" });
  });
export type BulkLimitInput = z.infer<typeof BulkLimitInput>;
