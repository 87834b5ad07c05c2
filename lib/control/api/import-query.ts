import { z } from "zod";

// The query of PUT /api/admin/config (also described by the OpenAPI document, lib/openapi).
// The default is given as text, before the transform, so the document shows "false".

const flag = z
  .enum(["true", "false", "1", "0"], { error: "must be true or false" })
  .default("false")
  .transform((v) => v === "true" || v === "1");

export const ImportQuery = z.strictObject({ prune: flag, dryRun: flag });
