import type { Lookup, LookupDecision } from "@/lib/control/ops/identifier-lookup";
import type { ResetResult } from "@/lib/control/counters/counter-reset";
import type { LiftResult } from "@/lib/control/counters/penalty-lift";
import type { ActionResult } from "@/components/forms/action-result";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { LimitCounter, ruleText } from "@/components/ops/limit-counter";
import { formatSpan } from "@/lib/shared/format-span";
import { formatTimeOfDay } from "@/lib/shared/format-date";
import { OverrideBadge } from "@/components/ops/override-badge";
import { SkippedLimits } from "@/components/ops/skipped-limits";

// An identifier's live counters for every limit it meets (with a reset for those who may),
// and its latest sampled decisions and denials with the limit that denied each.

export type ResetAction = (input: {
  tenant: string;
  limit: string;
  key?: string;
  route?: string;
  subject?: string;
}) => Promise<ActionResult<ResetResult>>;

/** Ends a penalty's block (penalty-lift.ts): the same input as a reset. */
export type LiftAction = (input: Parameters<ResetAction>[0]) => Promise<ActionResult<LiftResult>>;

function DecisionTable({
  rows,
  label,
  zone,
}: {
  rows: readonly LookupDecision[];
  label: string;
  zone: string;
}) {
  if (rows.length === 0) return <p className="muted">No {label} in the recent sample.</p>;
  return (
    <div className="table-scroll">
      <table aria-label={label} className="stack-on-phone">
        <thead>
          <tr>
            <th>When</th>
            <th>Key</th>
            <th>Route</th>
            <th>Subject</th>
            <th>Decision</th>
            <th>Denied by</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((d, i) => (
            <tr key={i}>
              <td className="mono">{formatTimeOfDay(d.at, true, zone)}</td>
              <td data-label="Key">{d.key ?? "—"}</td>
              <td data-label="Route" className="mono">
                {d.route ?? "—"}
              </td>
              <td data-label="Subject" className="mono">
                {d.subject ?? "—"}
              </td>
              <td data-label="Decision">
                {d.outcome === "allowed" ? "allowed" : `${d.outcome} (${d.reason})`}
              </td>
              <td data-label="Denied by">{d.deniedBy ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function LookupView({
  lookup,
  reset,
  lift,
  zone = "UTC",
}: {
  lookup: Lookup;
  reset: ResetAction;
  lift?: LiftAction;
  /** the reader's time zone (account settings) */
  zone?: string;
}) {
  const { state } = lookup;
  const owner = {
    tenant: state.tenant,
    ...(state.key !== null ? { key: state.key } : {}),
    ...(state.subject !== null ? { subject: state.subject } : {}),
  };
  return (
    <section aria-label="Lookup" data-testid="lookup">
      <h3>Live counters</h3>
      {state.limits.length === 0 ? (
        <p className="muted">No limit counts this identifier.</p>
      ) : (
        <div className="table-scroll">
          <table aria-label="Live counters" className="stack-on-phone">
            <thead>
              <tr>
                <th>Limit</th>
                <th>Rule</th>
                <th>Counter now</th>
                <th>Next check</th>
                {lookup.canReset && <th>Reset</th>}
              </tr>
            </thead>
            <tbody>
              {state.limits.map((l) => (
                <tr key={`${l.id}|${l.route ?? ""}`}>
                  <td>
                    <strong>{l.name}</strong> <span className="badge">{l.level}</span>
                    {l.route && <div className="muted mono">{l.route}</div>}
                  </td>
                  <td data-label="Rule">
                    {ruleText(l)}
                    {l.override && <OverrideBadge override={l.override} zone={zone} />}
                  </td>
                  <td data-label="Counter now">
                    <LimitCounter figures={l} />
                  </td>
                  <td data-label="Next check">
                    {l.penaltyBlockMs !== undefined ? (
                      <span data-testid="penalty-block">
                        <strong className="denied">blocked</strong>
                        <span className="muted"> · penalty, {formatSpan(l.penaltyBlockMs)} left</span>
                        {lift && lookup.canReset && (
                          <ConfirmButton
                            label="Lift"
                            confirmLabel={`Lift ${l.name}'s block`}
                            question={`End ${l.name}'s penalty block${state.key || state.subject ? " for this identifier" : " for every owner"}?`}
                            action={lift.bind(null, {
                              ...owner,
                              limit: l.name,
                              ...(l.route ? { route: l.route } : {}),
                            })}
                          />
                        )}
                      </span>
                    ) : l.wouldAllow ? (
                      "passes"
                    ) : (
                      <strong className="denied">denied</strong>
                    )}
                  </td>
                  {lookup.canReset && (
                    <td>
                      {!lookup.canResetImposed && (l.id.startsWith("p:") || l.id.startsWith("r:global:")) ? (
                        <span className="muted">operators only</span>
                      ) : (
                        <ConfirmButton
                          label="Reset"
                          confirmLabel={`Reset ${l.name}`}
                          question={`Clear ${l.name}'s counter${state.key || state.subject ? " for this identifier" : " for every owner"}?`}
                          action={reset.bind(null, {
                            ...owner,
                            limit: l.name,
                            ...(l.route ? { route: l.route } : {}),
                          })}
                        />
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <SkippedLimits skipped={state.skipped} label="Not counted here" zone={zone} />
      <h3>Recent denials</h3>
      <DecisionTable rows={lookup.denials} label="recent denials" zone={zone} />
      <h3>Recent decisions</h3>
      <DecisionTable rows={lookup.decisions} label="recent decisions" zone={zone} />
      <p className="muted">
        From a sample: the latest 50 matching among the tenant&apos;s last 500 sampled decisions and 500
        denials, written once a second. The Decisions tab filters and exports the whole sample.
      </p>
    </section>
  );
}
