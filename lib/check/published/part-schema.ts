import { z } from "zod";
import type { ConfigPart } from "@/lib/check/published/part-types";

// Parts are our own output, but they cross a process boundary (Redis, PostgreSQL JSON):
// check the outline, so a half-written or foreign value never replaces a good part.

/** A published override's outline (also checked in whole published configurations). */
export const overrideSchema = z.looseObject({
  id: z.string(),
  tenant: z.string(),
  key: z.string().nullable(),
  subject: z.string().nullable(),
  limit: z.string(),
  value: z.number().int().min(0).nullable(),
  startsAt: z.number(),
  endsAt: z.number(),
});

const partSchema = z.discriminatedUnion("kind", [
  z.looseObject({
    kind: z.literal("global"),
    routes: z.array(z.string()),
    serviceTokens: z.record(z.string(), z.looseObject({ id: z.string() })),
  }),
  z.looseObject({
    kind: z.literal("tenant"),
    tenant: z.looseObject({
      id: z.string(),
      slug: z.string(),
      status: z.string(),
      keys: z.record(z.string(), z.looseObject({ id: z.string(), name: z.string() })),
      keyNameById: z.record(z.string(), z.string()),
    }),
    overrides: z.array(overrideSchema),
  }),
  z.looseObject({
    kind: z.literal("key"),
    id: z.string(),
    tenant: z.string(),
    name: z.string(),
    expiresAt: z.number().nullable(),
    revoked: z.boolean(),
    previous: z.looseObject({ hash: z.string(), until: z.number() }).optional(),
  }),
]);

/** A part from JSON text or a database value; throws when its outline is wrong. */
export function parsePart(input: unknown): ConfigPart {
  const value: unknown = typeof input === "string" ? JSON.parse(input) : input;
  partSchema.parse(value);
  return value as ConfigPart;
}
