import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/control/auth/session";
import { exportDocument, toYaml } from "@/lib/control/data/queries/config-yaml";
import { ImportPanel } from "@/components/config/import-panel";
import { applyImportAction, previewImportAction } from "@/app/(dashboard)/_actions/import-actions";
import { orNotFound } from "@/app/(dashboard)/_lib/load";

export const metadata: Metadata = { title: "Import / export" };

export default async function ConfigPage() {
  const user = await requireUser();
  const yaml = toYaml(await orNotFound(exportDocument(user, null)));
  return (
    <section>
      <h1>Import / export</h1>
      <div className="panel">
        <p className="muted">
          The whole configuration (docs/configuration.md). Plans and global routes listed become exactly what
          the document says; tenants listed are created or updated; tenants left out are untouched. Keys a
          tenant names that do not exist are created, their secrets shown once. The text below is the current
          export. <Link href="/config/history">History and rollback</Link>
        </p>
        <ImportPanel initial={yaml} preview={previewImportAction} apply={applyImportAction} />
      </div>
    </section>
  );
}
