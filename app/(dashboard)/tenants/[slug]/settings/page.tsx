import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/control/auth/session";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { listPlanNames } from "@/lib/control/data/queries/list-tenants";
import { SimpleForm } from "@/components/forms/simple-form";
import { updateTenantAction } from "@/app/(dashboard)/_actions/tenant-actions";
import { orNotFound } from "@/app/(dashboard)/_lib/load";
import { HEADER_FLAVOURS } from "@/lib/shared/config-terms";

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
          {
            name: "headers",
            label: "RateLimit headers",
            type: "select",
            options: [...HEADER_FLAVOURS],
            defaultValue: tenant.headers,
            hint: "the header fields of this tenant's check answers: draft-11 (the default), draft-7, draft-6, legacy (X-RateLimit-*) or legacy-epoch",
          },
        ]}
      />
    </div>
  );
}
