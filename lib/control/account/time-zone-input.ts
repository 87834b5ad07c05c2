import { z } from "zod";
import { isTimeZone } from "@/lib/shared/format-date";

// What the account settings' time zone form may send: an IANA zone this runtime knows.

export const TimeZoneInput = z.strictObject({
  timeZone: z
    .string()
    .max(64, { error: "must be a time zone name such as Europe/Paris" })
    .refine(isTimeZone, { error: "must be a time zone name such as Europe/Paris, or UTC" }),
});
export type TimeZoneInput = z.infer<typeof TimeZoneInput>;
