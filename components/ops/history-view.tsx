import "@/components/styles/ops-tools.css";
import type { HistoryPage, HistoryVersion } from "@/lib/control/data/config-history";
import type { ActionResult } from "@/components/forms/action-result";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { DiffView } from "@/components/config/diff-view";
import { RollbackButton, type PreviewAction, type RollbackAction } from "@/components/ops/rollback-button";
import { formatDateSeconds } from "@/lib/shared/format-date";

// Every config version, newest first: who, when, each changed object with a line diff of
// its before and after (as YAML, like the import preview) and, where it can be undone on
// its own, "Revert this change"; a rollback to the version where one would change something.

export type { RollbackAction, PreviewAction } from "@/components/ops/rollback-button";
export type RevertAction = (input: { id: string }) => Promise<ActionResult<unknown>>;

/** What the page may do: each absent when the viewer may not. */
export interface HistoryActions {
  rollback: RollbackAction | null;
  preview: PreviewAction;
  revert: RevertAction | null;
}

export interface ShownChange {
  id: string;
  revertible: boolean;
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
  actions,
  zone,
}: {
  version: HistoryVersion;
  changes: ShownChange[];
  newest: boolean;
  tenant: string | null;
  actions: HistoryActions;
  zone: string;
}) {
  return (
    <li className="history-version" data-testid={`version-${version.version}`}>
      <div className="history-head">
        <strong>Version {version.version}</strong>
        <span className="mono muted">{formatDateSeconds(version.at, false, zone)}</span>
        <span>by {version.actors.join(", ") || "unknown"}</span>
        {newest ? (
          <span className="badge">current</span>
        ) : actions.rollback && version.rollbackable ? (
          <RollbackButton
            version={version.version}
            tenant={tenant}
            rollback={actions.rollback}
            preview={actions.preview}
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
          {actions.revert && c.revertible && (
            <ConfirmButton
              label="Revert this change"
              confirmLabel="Revert it"
              question={`Undo this ${c.action} as a new version? Refused if a later change touched the same thing.`}
              action={actions.revert.bind(null, { id: c.id })}
            />
          )}
        </details>
      ))}
    </li>
  );
}

export function HistoryView({
  page,
  changes,
  tenant,
  actions,
  olderHref,
  newestVersion,
  zone = "UTC",
}: {
  page: HistoryPage;
  changes: Map<number, ShownChange[]>;
  tenant: string | null;
  actions: HistoryActions;
  olderHref: string | null;
  newestVersion: number | null;
  /** the reader's time zone (account settings) */
  zone?: string;
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
            actions={actions}
            zone={zone}
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
