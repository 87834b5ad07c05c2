import { z } from "zod";
import { NAME_PATTERN, NAME_RULE, routeSchema } from "@/lib/control/config/document";

// Where a limit is declared, as the editor addresses it. Isomorphic: forms build it too.

const slug = z.string().regex(NAME_PATTERN, { error: NAME_RULE });
const pattern = routeSchema.shape.pattern;

export const limitTargetSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("tenant"), tenant: slug }),
  z.strictObject({ kind: z.literal("tenant-route"), tenant: slug, pattern }),
  z.strictObject({ kind: z.literal("key"), tenant: slug, key: slug }),
  z.strictObject({ kind: z.literal("plan"), plan: slug }),
  z.strictObject({ kind: z.literal("global-route"), pattern }),
]);
export type LimitTarget = z.infer<typeof limitTargetSchema>;

export function describeTarget(target: LimitTarget): string {
  switch (target.kind) {
    case "tenant":
      return `tenant ${target.tenant}`;
    case "tenant-route":
      return `tenant ${target.tenant}, route ${target.pattern}`;
    case "key":
      return `key ${target.key} of tenant ${target.tenant}`;
    case "plan":
      return `plan ${target.plan}`;
    case "global-route":
      return `global route ${target.pattern}`;
  }
}
