import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/control/auth/session";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { listPlanNames } from "@/lib/control/data/queries/list-tenants";
import { SimpleForm } from "@/components/forms/simple-form";
import { updateTenantAction } from "@/app/(dashboard)/_actions/tenant-actions";
import { orNotFound } from "@/app/(dashboard)/_lib/load";

export const metadata: Metadata = { title: "Tenant settings" };

export default async function TenantSettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const tenant = await orNotFound(tenantDetail(user, slug));
  if (!tenant.can.own) notFound();
  // Owners rename; plan and status are operators' (the import refuses them from members).
  const plans = tenant.can.operate ? await listPlanNames() : [tenant.plan];
  const statuses = tenant.can.operate ? ["active", "suspended"] : [tenant.status];
  return (
    <div className="panel">
      <h2>Settings</h2>
      <SimpleForm
        action={updateTenantAction}
        submitLabel="Save settings"
        fields={[
          { name: "slug", label: "", type: "hidden", defaultValue: slug },
          { name: "name", label: "Display name", defaultValue: tenant.name },
          { name: "plan", label: "Plan", type: "select", options: plans, defaultValue: tenant.plan },
          {
            name: "status",
            label: "Status",
            type: "select",
            options: statuses,
            defaultValue: tenant.status,
            hint: "suspended: every check is refused",
          },
        ]}
      />
    </div>
  );
}
