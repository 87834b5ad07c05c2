import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/control/auth/session";
import { listOverrides } from "@/lib/control/data/override-list";
import { endOverrideAction } from "@/app/(dashboard)/_actions/override-actions";
import { OverrideTable } from "@/components/overrides/override-table";

export const metadata: Metadata = { title: "Overrides" };

// Operators: every tenant's temporary overrides in force and waiting, in one list.
export default async function OverridesPage() {
  const user = await requireUser();
  if (!user.isOperator) notFound();
  const { at, overrides } = await listOverrides(user, {});
  return (
    <div className="panel">
      <h1>Temporary overrides</h1>
      <p className="muted">
        Every tenant&apos;s overrides in force and waiting, earliest start first. Each ends by itself; end one
        early here or on its tenant&apos;s page. See the docs: overrides.
      </p>
      <OverrideTable overrides={overrides} canEnd showTenant renderedAt={at} end={endOverrideAction} />
    </div>
  );
}
