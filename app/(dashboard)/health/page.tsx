import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/control/auth/session";
import { readCheckHealth } from "@/lib/control/ops/check-health";
import { CheckHealthPanel } from "@/components/health/check-health-panel";
import { AutoRefresh } from "@/components/alerts/auto-refresh";
import { orNotFound } from "@/app/(dashboard)/_lib/load";
import "@/components/health/health.css";

export const metadata: Metadata = { title: "Check health" };

export default async function CheckHealthPage() {
  const user = await requireUser();
  if (!user.isOperator) notFound();
  const health = await orNotFound(readCheckHealth(user, {}));
  return (
    <section>
      <h1>Check endpoint health</h1>
      <div className="panel">
        <p className="muted">
          The last hour of <span className="mono">/api/check</span> and the gRPC front, per minute, summed
          over every front that reported: answer time inside the front (p50, p99), answers with a 5xx status,
          429s before a decision, denials, degraded answers by cause and answers later than the check timeout
          + 50 ms. Each front publishes its figures every 10 s; the page refreshes every 15 s.
        </p>
        <CheckHealthPanel health={health} zone={user.timeZone ?? "UTC"} />
      </div>
      <AutoRefresh everyMs={15_000} />
    </section>
  );
}
