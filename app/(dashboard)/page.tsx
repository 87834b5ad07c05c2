import type { Metadata } from "next";

export const metadata: Metadata = { title: "Overview" };

export default function OverviewPage() {
  return (
    <section>
      <h1>Overview</h1>
      <div className="panel">
        <p>Tenants, their limits and live traffic will appear here.</p>
      </div>
    </section>
  );
}
