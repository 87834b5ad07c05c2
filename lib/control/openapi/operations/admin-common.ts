import { z } from "@/lib/control/openapi/zod";

// What every /api/admin operation shares: who may call it and the headers of its answers.

/** An admin token or the bootstrap token as a bearer, or a dashboard session cookie. */
export const ADMIN_SECURITY: Record<string, string[]>[] = [{ adminToken: [] }, { session: [] }];

export const ADMIN_HEADERS = {
  "x-request-id": {
    description: "The caller's x-request-id when sane, else a new one; quoted in audit entries.",
    schema: { type: "string" },
    required: true,
  },
  "cache-control": {
    description: "Always no-store.",
    schema: { type: "string", const: "no-store" },
    required: true,
  },
} as const;

export const TenantSlugParam = z.string().openapi({ param: { name: "slug", in: "path" }, example: "acme" });
export const KeyNameParam = z.string().openapi({ param: { name: "name", in: "path" }, example: "checkout" });
