// A plan's service limit (docs/configuration.md): how many checks a second one check front
// process answers for each tenant on the plan before it refuses them. Left out: no limit.

import { z } from "zod";

export const MAX_SERVICE_RATE = 10_000_000;
/** A full batch (POST /api/check/batch holds at most 1,000 checks) must fit in the burst. */
export const MIN_SERVICE_BURST = 1_000;

const RATE_RULE = "must be a whole number from 1 to 10,000,000";
const BURST_RULE = "must be a whole number from 1,000 to 10,000,000 (a full batch of 1,000 checks must fit)";

export const serviceRateSchema = z
  .number()
  .int({ error: RATE_RULE })
  .min(1, { error: RATE_RULE })
  .max(MAX_SERVICE_RATE, { error: RATE_RULE });

export const serviceBurstSchema = z
  .number()
  .int({ error: BURST_RULE })
  .min(MIN_SERVICE_BURST, { error: BURST_RULE })
  .max(MAX_SERVICE_RATE, { error: BURST_RULE });

/** `burst` defaults to `checksPerSecond`, which then must be at least 1,000 itself. */
export const serviceLimitSchema = z
  .strictObject({ checksPerSecond: serviceRateSchema, burst: serviceBurstSchema.optional() })
  .superRefine((service, ctx) => {
    if (service.burst === undefined && service.checksPerSecond < MIN_SERVICE_BURST) {
      ctx.addIssue({
        code: "custom",
        path: ["burst"],
        message: `required when checksPerSecond is below 1,000 (it defaults to checksPerSecond, ${service.checksPerSecond}, and a full batch of 1,000 checks must fit)`,
      });
    }
  });

export type ServiceLimitDoc = z.output<typeof serviceLimitSchema>;

/** The limit in force: the burst filled in. */
export interface ServiceLimit {
  checksPerSecond: number;
  burst: number;
}

export function resolveServiceLimit(service: ServiceLimitDoc | undefined | null): ServiceLimit | null {
  if (!service) return null;
  return { checksPerSecond: service.checksPerSecond, burst: service.burst ?? service.checksPerSecond };
}
