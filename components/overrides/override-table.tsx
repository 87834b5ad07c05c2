import type { OverrideView } from "@/lib/control/data/override-view";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { Countdown } from "@/components/overrides/countdown";
import type { ActionResult } from "@/components/forms/action-result";

// Overrides in force and waiting, with a countdown to their start or end and, for those who
// may, a button to end one early. `showTenant` for the operators' list of every tenant's.

function target(o: OverrideView): string {
  if (o.key !== null) return `key ${o.key}`;
  if (o.subject !== null) return `subject ${o.subject}`;
  return "every check";
}

const value = (o: OverrideView): string =>
  o.value === "disabled" ? "disabled" : o.value === 0 ? "0 (blocked)" : String(o.value);

export type EndOverride = (input: { id: string }) => Promise<ActionResult<unknown>>;

export function OverrideTable({
  overrides,
  canEnd,
  showTenant = false,
  renderedAt,
  end,
}: {
  overrides: OverrideView[];
  canEnd: boolean;
  showTenant?: boolean;
  renderedAt: number;
  /** the page's server action */
  end: EndOverride;
}) {
  if (overrides.length === 0) return <p className="empty">No overrides in force or waiting.</p>;
  return (
    <div className="table-wrap">
      <table className="table" data-testid="override-table">
        <thead>
          <tr>
            {showTenant && <th>Tenant</th>}
            <th>Limit</th>
            <th>For</th>
            <th>Value</th>
            <th>When</th>
            <th>Reason</th>
            <th>By</th>
            {canEnd && <th aria-label="actions" />}
          </tr>
        </thead>
        <tbody>
          {overrides.map((o) => (
            <tr key={o.id} data-testid={`override-${o.id}`} data-state={o.state}>
              {showTenant && (
                <td>
                  <a href={`/tenants/${o.tenant}`}>{o.tenant}</a>
                </td>
              )}
              <td className="mono">{o.limit}</td>
              <td>{target(o)}</td>
              <td className="mono">{value(o)}</td>
              <td>
                <span className={`badge ${o.state === "active" ? "badge-ok" : ""}`}>{o.state}</span>{" "}
                {o.state === "upcoming" ? (
                  <Countdown to={o.startsAt} renderedAt={renderedAt} label="starts in" />
                ) : (
                  <Countdown to={o.endsAt} renderedAt={renderedAt} label="ends in" />
                )}
              </td>
              <td>{o.reason}</td>
              <td className="muted">{o.createdBy}</td>
              {canEnd && (
                <td>
                  <ConfirmButton
                    label={o.state === "upcoming" ? "Cancel" : "End now"}
                    confirmLabel={o.state === "upcoming" ? "Cancel override" : "End override now"}
                    question={`End the override of ${o.limit} (${target(o)}) now?`}
                    action={end.bind(null, { id: o.id })}
                  />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
