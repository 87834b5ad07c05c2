import type { Metadata } from "next";
import { requireUser } from "@/lib/control/auth/session";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { exportDocument, toYaml } from "@/lib/control/data/queries/config-yaml";
import { ImportPanel } from "@/components/config/import-panel";
import { applyImportAction, previewImportAction } from "@/app/(dashboard)/_actions/import-actions";
import { orNotFound } from "@/app/(dashboard)/_lib/load";

export const metadata: Metadata = { title: "Tenant YAML" };

export default async function TenantConfigPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const tenant = await orNotFound(tenantDetail(user, slug));
  const yaml = toYaml(await orNotFound(exportDocument(user, slug)));
  return (
    <div className="panel">
      <h2>{tenant.name} as YAML</h2>
      {tenant.can.edit ? (
        <>
          <p className="muted">
            Edit and preview: you see every error with its path, or exactly what will change, before anything
            is applied.
          </p>
          <ImportPanel initial={yaml} preview={previewImportAction} apply={applyImportAction} />
        </>
      ) : (
        <pre className="yaml" data-testid="yaml-export">
          {yaml}
        </pre>
      )}
    </div>
  );
}
