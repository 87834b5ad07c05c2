import { z } from "zod";

// The body of POST /api/check/release (release-endpoint.ts), also the OpenAPI document's.

/** the longest lease token accepted (lease-token.ts makes far shorter ones) */
export const MAX_LEASE_TOKEN = 4_096;
export const MAX_RELEASES = 1_000;

export const token = z
  .string({ error: "must be a string (the lease a check answered)" })
  .min(1, { error: "must not be empty" })
  .max(MAX_LEASE_TOKEN, { error: `must be at most ${MAX_LEASE_TOKEN} characters` });

/** Exported for the OpenAPI document. */
export const releaseSchema = z.union([
  z.strictObject({ lease: token }),
  z.strictObject({
    leases: z
      .array(token, { error: "must be an array of leases" })
      .min(1, { error: "must list at least one lease" })
      .max(MAX_RELEASES, { error: `must list at most ${MAX_RELEASES} leases` }),
  }),
]);
