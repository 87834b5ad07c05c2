import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { adjustSchema } from "@/lib/check/adjust/adjust-schema";
import { ADJUST_EFFECTS, ADJUST_WINDOW_MS } from "@/lib/check/adjust/adjust-terms";
import { z } from "@/lib/control/openapi/zod";
import { errors, ERRORS } from "@/lib/control/openapi/schemas/errors";

// POST /api/check/adjust (lib/check/http/adjust-endpoint.ts): 401, 413, 400 (fields, an
// id this installation did not issue), 404 (a tenant the token may not check), then 409.

const AdjustRequestSchema = adjustSchema.meta({
  id: "AdjustRequest",
  description: "Charge (amount > 0) or refund (amount < 0) a decided check by its checkId.",
});

const AdjustAnswerSchema = z
  .strictObject({
    checkId: z.string(),
    replayed: z.boolean().openapi({
      description: "true: this idempotency key was used before; nothing changed, the first answer's figures",
    }),
    held: z
      .number()
      .int()
      .openapi({ description: "units the check holds now: its cost plus its adjustments" }),
    effects: z.array(z.enum(ADJUST_EFFECTS)).openapi({
      description:
        "per limit the check consumed, in the check's order: applied, clamped (at zero or at the limit's capacity) or none (its window has passed, or nothing to move)",
    }),
  })
  .openapi("AdjustAnswer");

export function registerAdjustOperation(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/api/check/adjust",
    operationId: "adjustCheck",
    tags: ["Checks"],
    summary: "Charge or refund a decided check",
    description: `For costs known after the response (tokens used, bytes served, a failed request). The check must have been sent with adjustable: true; its id can be adjusted for ${ADJUST_WINDOW_MS / 1000} s. Idempotent per checkId and idempotencyKey. Body at most 16 KiB.`,
    security: [{ serviceToken: [] }],
    request: { body: { required: true, content: { "application/json": { schema: AdjustRequestSchema } } } },
    responses: {
      200: {
        description: "Applied, or replayed.",
        content: { "application/json": { schema: AdjustAnswerSchema } },
      },
      ...errors(400, 401),
      404: { ...ERRORS[404], description: "not_found: a check of a tenant this token may not check." },
      409: {
        ...ERRORS[409],
        description:
          "check_expired (checkId), over_refund: more than the check holds (amount), over_charge: the check would hold more than 1,000,000 units (amount); nothing changed.",
      },
      ...errors(413, 503),
    },
  });
}
