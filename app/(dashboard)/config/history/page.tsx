import type { Metadata } from "next";
import { isOperator } from "@/lib/shared/principal";
import { requireUser } from "@/lib/control/auth/session";
import { HistoryQuery, listHistory } from "@/lib/control/data/config-history";
import { HistoryView } from "@/components/ops/history-view";
import { rollbackAction } from "@/app/(dashboard)/_actions/ops-actions";
import { revertChangeAction, rollbackPreviewAction } from "@/app/(dashboard)/_actions/revert-actions";
import { orNotFound } from "@/app/(dashboard)/_lib/load";
import { changesAsYaml } from "@/app/(dashboard)/_lib/history-changes";
import type { SearchParams } from "@/app/(dashboard)/_lib/check-params";

export const metadata: Metadata = { title: "Configuration history" };

// Every config version of the installation (members: of their tenants only); operators roll
// back the whole configuration from here, tenants' parts on each tenant's History tab.
export default async function ConfigHistoryPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser();
  const before = (await searchParams).before;
  const query = HistoryQuery.safeParse({ before: typeof before === "string" ? before : undefined });
  const page = await orNotFound(listHistory(user, query.success ? query.data : { limit: 20 }));
  const newest =
    query.success && query.data.before !== undefined ? null : (page.versions[0]?.version ?? null);
  return (
    <section>
      <h1>Configuration history</h1>
      <div className="panel">
        <p className="muted">
          Every configuration version: who, when and what changed. Rolling back makes the whole configuration
          as it was (tenants created since are deleted), as a new version checked like any import.
        </p>
        <HistoryView
          page={page}
          changes={changesAsYaml(page)}
          tenant={null}
          actions={{
            rollback: isOperator(user) ? rollbackAction : null,
            preview: rollbackPreviewAction,
            revert: isOperator(user) ? revertChangeAction : null,
          }}
          olderHref={page.nextBefore === null ? null : `/config/history?before=${page.nextBefore}`}
          newestVersion={newest}
          zone={user.timeZone ?? "UTC"}
        />
      </div>
    </section>
  );
}
