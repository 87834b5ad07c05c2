import { resolveServiceLimit, type ServiceLimitDoc } from "@/lib/check/published/service-limit-schema";

// How the dashboard states a plan's service limit: the same sentence on the plans page and
// on a tenant's pages, so operators and members read one meaning.

const number = new Intl.NumberFormat("en-US");

/** "5,000 checks/s per check front, burst 10,000", or "none". */
export function serviceLimitText(service: ServiceLimitDoc | null | undefined): string {
  const limit = resolveServiceLimit(service);
  if (!limit) return "none";
  return `${number.format(limit.checksPerSecond)} checks/s per check front, burst ${number.format(limit.burst)}`;
}
