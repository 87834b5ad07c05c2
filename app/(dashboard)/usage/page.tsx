import type { Metadata } from "next";
import { requireUser } from "@/lib/control/auth/session";
import { dashboardData } from "@/lib/usage/read/dashboard";
import { isRangeId } from "@/lib/usage/ranges";
import { UsageDashboard } from "@/components/usage/usage-dashboard";
import { mayActOnDegraded } from "@/lib/usage/read/degraded-causes";
import { parseCustomWindow } from "@/lib/usage/read/custom-window";

export const metadata: Metadata = { title: "Usage" };
export const dynamic = "force-dynamic";

// Every tenant the user may see, summed; the breakdown by tenant leads to each tenant.
export default async function UsageOverviewPage({
  searchParams,
}: {
  searchParams: Promise<{ range?: string; from?: string; to?: string; compare?: string }>;
}) {
  const user = await requireUser();
  const { range, from, to, compare } = await searchParams;
  const parsed = parseCustomWindow(from, to);
  const [initial, canAct] = await Promise.all([
    dashboardData(user, {
      range: isRangeId(range) ? range : "15m",
      window: parsed.kind === "ok" ? parsed.window : undefined,
      compare: compare === "1",
    }),
    mayActOnDegraded(user, null),
  ]);
  return (
    <section>
      <h1>Usage</h1>
      {parsed.kind === "invalid" ? (
        <p className="error" role="alert" data-testid="range-error">
          Custom range not applied: {parsed.field} {parsed.message}.
        </p>
      ) : null}
      <UsageDashboard
        key={`${initial.range}|${from ?? ""}|${to ?? ""}|${compare ?? ""}`}
        initial={initial}
        canAct={canAct}
      />
    </section>
  );
}
