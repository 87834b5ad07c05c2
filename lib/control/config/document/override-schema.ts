// Temporary overrides in the configuration document (docs/overrides.md): exported with their
// times so a restore brings them back. Import creates those it does not know (by id) and
// leaves the rest as they are; an ended one is not brought back.

import { z } from "zod";

import { MAX_LIMIT, nameSchema } from "./field-schemas";

const instant = z.iso.datetime({
  offset: true,
  error: "must be an ISO 8601 time, e.g. 2026-11-27T18:00:00Z",
});

export const overrideDocSchema = z.strictObject({
  /** the id it had where it was exported: an import skips one it already holds */
  id: z
    .string()
    .regex(/^[a-z0-9]{1,40}$/, { error: "must be an override id" })
    .optional(),
  tenant: nameSchema,
  key: nameSchema.optional(),
  subject: z.string().min(1).max(256, { error: "must be at most 256 characters" }).optional(),
  limit: nameSchema,
  value: z.union([z.number().int().min(0).max(MAX_LIMIT), z.literal("disabled")], {
    error: 'must be a whole number 0 or more, or "disabled"',
  }),
  startsAt: instant,
  endsAt: instant,
  reason: z
    .string()
    .trim()
    .min(1, { error: "is required" })
    .max(500, { error: "must be at most 500 characters" }),
  createdBy: z.string().max(200).optional(),
});

export type OverrideDoc = z.output<typeof overrideDocSchema>;
