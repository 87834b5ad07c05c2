import { z } from "@/lib/control/openapi/zod";
import { CreatedKeySchema } from "@/lib/control/openapi/schemas/admin";

// Answers of the bulk admin calls (lib/control/data/bulk/*): each one change, one config version.

const version = z
  .number()
  .int()
  .nullable()
  .openapi({ description: "the new config version; null when nothing changed" });

export const CreatedKeysSchema = z
  .strictObject({
    keys: z.array(CreatedKeySchema).openapi({ description: "in the order given; secrets shown only now" }),
  })
  .openapi("CreatedKeys");

export const PlanAssignmentSchema = z
  .strictObject({
    configVersion: version,
    moved: z.array(z.string()).openapi({ description: "slugs moved to the plan, in the order given" }),
    unchanged: z.array(z.string()).openapi({ description: "slugs already on it" }),
  })
  .openapi("PlanAssignment");

const labels = (what: string) =>
  z
    .array(z.string())
    .openapi({ description: `targets ${what} ("tenant acme", "key backend of tenant acme")` });

export const BulkLimitResultSchema = z
  .strictObject({
    configVersion: version,
    created: labels("that had no limit of that name"),
    updated: labels("whose limit of that name was replaced"),
    unchanged: labels("that already had exactly this limit"),
  })
  .openapi("BulkLimitResult");
