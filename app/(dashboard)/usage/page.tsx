import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/session";
import { dashboardData } from "@/lib/usage/dashboard";
import { isRangeId } from "@/lib/usage/ranges";
import { UsageDashboard } from "@/components/usage/usage-dashboard";

export const metadata: Metadata = { title: "Usage" };
export const dynamic = "force-dynamic";

// Every tenant the user may see, summed; the breakdown by tenant leads to each tenant.
export default async function UsageOverviewPage({
  searchParams,
}: {
  searchParams: Promise<{ range?: string }>;
}) {
  const user = await requireUser();
  const { range } = await searchParams;
  const initial = await dashboardData(user, { range: isRangeId(range) ? range : "15m" });
  return (
    <section>
      <h1>Usage</h1>
      <UsageDashboard key={initial.range} initial={initial} />
    </section>
  );
}
