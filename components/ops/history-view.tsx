import "@/components/styles/ops-tools.css";
import type { HistoryPage, HistoryVersion } from "@/lib/control/data/config-history";
import type { RollbackResult } from "@/lib/control/data/config-rollback";
import type { ActionResult } from "@/components/forms/action-result";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { DiffView } from "@/components/config/diff-view";

// Every config version, newest first: who, when, each changed object with a line diff of
// its before and after (as YAML, like the import preview), and a rollback to that version.

export type RollbackAction = (input: {
  version: number;
  tenant?: string;
}) => Promise<ActionResult<RollbackResult>>;

export interface ShownChange {
  action: string;
  target: string;
  tenant: string | null;
  before: string;
  after: string;
}

function VersionItem({
  version,
  changes,
  newest,
  tenant,
  rollback,
}: {
  version: HistoryVersion;
  changes: ShownChange[];
  newest: boolean;
  tenant: string | null;
  rollback: RollbackAction | null;
}) {
  return (
    <li className="history-version" data-testid={`version-${version.version}`}>
      <div className="history-head">
        <strong>Version {version.version}</strong>
        <span className="mono muted">{version.at.replace("T", " ").slice(0, 19)} UTC</span>
        <span>by {version.actors.join(", ") || "unknown"}</span>
        {newest ? (
          <span className="badge">current</span>
        ) : rollback && version.restorable ? (
          <ConfirmButton
            label="Roll back to this"
            confirmLabel={`Restore version ${version.version}`}
            question={`Make ${tenant ? `${tenant}'s configuration` : "the whole configuration"} as it was at version ${version.version} (a new version)?`}
            action={rollback.bind(
              null,
              tenant ? { version: version.version, tenant } : { version: version.version },
            )}
          />
        ) : null}
      </div>
      {changes.map((c, i) => (
        <details key={i} open={i === 0}>
          <summary>
            <code>{c.action}</code> {c.target}
            {c.tenant && !tenant ? ` (tenant ${c.tenant})` : ""}
          </summary>
          <DiffView before={c.before} after={c.after} />
        </details>
      ))}
    </li>
  );
}

export function HistoryView({
  page,
  changes,
  tenant,
  rollback,
  olderHref,
  newestVersion,
}: {
  page: HistoryPage;
  changes: Map<number, ShownChange[]>;
  tenant: string | null;
  rollback: RollbackAction | null;
  olderHref: string | null;
  newestVersion: number | null;
}) {
  if (page.versions.length === 0) return <p className="muted">No configuration change recorded yet.</p>;
  return (
    <>
      <ol className="history" aria-label="Config versions">
        {page.versions.map((v) => (
          <VersionItem
            key={v.version}
            version={v}
            changes={changes.get(v.version) ?? []}
            newest={v.version === newestVersion}
            tenant={tenant}
            rollback={rollback}
          />
        ))}
      </ol>
      {olderHref && (
        <p>
          <a href={olderHref}>Older versions</a>
        </p>
      )}
    </>
  );
}
