import { z } from "zod";
import { NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";

// The query of PUT /api/admin/config (also described by the OpenAPI document, lib/openapi).
// The default is given as text, before the transform, so the document shows "false".

const name = z.string().regex(NAME_PATTERN, { error: NAME_RULE });

const flag = z
  .enum(["true", "false", "1", "0"], { error: "must be true or false" })
  .default("false")
  .transform((v) => v === "true" || v === "1");

export const ImportQuery = z.strictObject({
  prune: flag,
  dryRun: flag,
  /** `envoy`: the body is envoyproxy/ratelimit's YAML file (docs/envoy-migration.md) */
  format: z.enum(["sluice", "envoy"], { error: "must be sluice or envoy" }).default("sluice"),
  /** with format=envoy: the plan of the domain's tenant (required) */
  plan: name.optional(),
  /** with format=envoy: the tenant's slug instead of the one made of the domain */
  tenant: name.optional(),
});

export type ImportQueryValues = z.output<typeof ImportQuery>;
