import "server-only";
import { z } from "zod";
import { NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";
import { safeText } from "@/lib/shared/safe-text";

// Where a counter question points (tenant, and optionally key, route and subject): the
// query of GET /api/admin/state, and the base of reset, simulate and identifier lookup.

const slug = z.string().regex(NAME_PATTERN, { error: NAME_RULE });

export const CounterQuery = z.strictObject({
  tenant: slug,
  key: slug.optional(),
  route: safeText(
    z
      .string()
      .max(2048, { error: "must be at most 2048 characters" })
      .regex(/^[A-Za-z*]+ \/\S*$/, { error: 'must be "METHOD /path", e.g. "GET /v1/items/42"' }),
  ).optional(),
  subject: safeText(
    z.string().min(1, { error: "must not be empty" }).max(256, { error: "must be at most 256 characters" }),
  ).optional(),
});
export type CounterQuery = z.infer<typeof CounterQuery>;
