import { z } from "@/lib/control/openapi/zod";

// Answers of /api/admin/tenants/{slug}/alerts/*: the shapes of lib/control/data/alerts/*'s views.

const isoTime = z.string().openapi({ format: "date-time" });

export const AlertEndpointSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    url: z.string().openapi({
      description:
        "the webhook URL; below the admin role only its scheme and host (https://hooks.slack.com/…)",
    }),
    format: z.enum(["json", "slack"]),
    secretPrefix: z.string().openapi({ description: "the start of the signing secret, for recognising it" }),
    allowPrivate: z.boolean().openapi({ description: "an operator let it reach private networks" }),
    createdAt: isoTime,
    disabledAt: isoTime.nullable(),
  })
  .openapi("AlertEndpoint");

export const AlertEndpointListSchema = z
  .strictObject({ endpoints: z.array(AlertEndpointSchema) })
  .openapi("AlertEndpointList");

export const CreatedAlertEndpointSchema = z
  .strictObject({
    endpoint: AlertEndpointSchema,
    secret: z.string().openapi({ description: "the signing secret: shown only now" }),
  })
  .openapi("CreatedAlertEndpoint");

export const AlertRuleSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    kind: z.enum(["utilization", "rejection_rate", "degraded"]),
    limitName: z.string().nullable(),
    keyName: z.string().nullable(),
    route: z.string().nullable(),
    thresholdPct: z.number().nullable(),
    forSeconds: z.number().int(),
    endpoint: z.string(),
    disabledAt: isoTime.nullable(),
    firing: z.boolean(),
  })
  .openapi("AlertRule");

export const AlertRuleListSchema = z
  .strictObject({ rules: z.array(AlertRuleSchema) })
  .openapi("AlertRuleList");

export const AlertDeliverySchema = z
  .strictObject({
    id: z.string(),
    event: z.enum(["firing", "resolved"]),
    rule: z.string(),
    endpoint: z.string(),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.number().int(),
    responseCode: z.number().int().nullable(),
    lastError: z.string().nullable().openapi({
      description:
        "why the last attempt failed; below the admin role only its kind (refused: private address, answered 503...), never an address",
    }),
    createdAt: isoTime,
    deliveredAt: isoTime.nullable(),
    nextAttemptAt: isoTime,
  })
  .openapi("AlertDelivery");

export const AlertDeliveryListSchema = z
  .strictObject({ deliveries: z.array(AlertDeliverySchema) })
  .openapi("AlertDeliveryList");

export const DisabledSchema = z
  .strictObject({ name: z.string().optional(), id: z.string().optional(), disabled: z.literal(true) })
  .openapi("Disabled");
