"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ActionResult } from "@/components/forms/action-result";
import type { RollbackResult } from "@/lib/control/data/config-rollback";
import type { RollbackPreview } from "@/lib/control/data/edits/rollback-preview";
import { DiffView } from "@/components/config/diff-view";

// "Roll back to this" asks first with what it will do: today's configuration against the
// version's (current -> target), the overrides it ends and the alert rules it disables or
// enables, and what it leaves as it is. Nothing to restore: it says so and offers nothing.

export type RollbackAction = (input: {
  version: number;
  tenant?: string;
}) => Promise<ActionResult<RollbackResult>>;
export type PreviewAction = (input: {
  version: number;
  tenant?: string;
}) => Promise<ActionResult<RollbackPreview>>;

function listed(label: string, items: string[]) {
  return items.length === 0 ? null : (
    <li>
      {label}: {items.join(", ")}
    </li>
  );
}

export function RollbackButton({
  version,
  tenant,
  rollback,
  preview,
}: {
  version: number;
  tenant: string | null;
  rollback: RollbackAction;
  preview: PreviewAction;
}) {
  const router = useRouter();
  const input = tenant ? { version, tenant } : { version };
  const [shown, setShown] = useState<RollbackPreview | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function open() {
    setPending(true);
    const result = await preview(input);
    setPending(false);
    if (result.ok) setShown(result.data);
    else setError(result.message);
  }
  async function run() {
    setPending(true);
    const result = await rollback(input);
    setPending(false);
    if (!result.ok)
      return setError(result.errors?.map((e) => `${e.path}: ${e.message}`).join("; ") || result.message);
    setShown(null);
    router.refresh();
  }

  if (!shown)
    return (
      <span>
        <button type="button" className="secondary danger" disabled={pending} onClick={() => void open()}>
          {pending ? "Looking…" : "Roll back to this"}
        </button>
        {error && (
          <span role="alert" className="error">
            {error}
          </span>
        )}
      </span>
    );
  const r = shown.result;
  const whose = tenant ? `${tenant}'s configuration` : "the whole configuration";
  const acts =
    r.changes.length + r.overridesEnded.length + r.alertRulesDisabled.length + r.alertRulesEnabled.length > 0;
  return (
    <div
      className="rollback-preview"
      role="group"
      aria-label={`Roll back to version ${version}`}
      data-testid="rollback-preview"
    >
      {acts ? (
        <>
          <p>
            Make {whose} as it was at version {version}, as a new version:
          </p>
          <ul>
            <li>
              {tenant ? "Its limits, routes and keys' limits" : "Plans, global routes and every tenant"} as at
              version {version} (below: now → after the rollback)
              {tenant ? "" : "; tenants made since are deleted"}.
            </li>
            {listed("Overrides made since, ended", r.overridesEnded)}
            {listed("Alert rules made since, disabled", r.alertRulesDisabled)}
            {listed("Alert rules disabled since, enabled again", r.alertRulesEnabled)}
            <li className="muted">
              Left as they are: overrides ended since, API keys and their secrets, members, tokens and alert
              endpoints.
            </li>
          </ul>
          <DiffView before={shown.current} after={shown.target} />
        </>
      ) : (
        <p data-testid="rollback-nothing">
          Nothing to restore: {whose} is already as it was at version {version}.
        </p>
      )}
      <div className="form-actions">
        {acts && (
          <button type="button" className="danger" disabled={pending} onClick={() => void run()}>
            {pending ? "Working…" : `Restore version ${version}`}
          </button>
        )}
        <button type="button" className="secondary" onClick={() => setShown(null)}>
          Cancel
        </button>
        {error && (
          <span role="alert" className="error">
            {error}
          </span>
        )}
      </div>
    </div>
  );
}
