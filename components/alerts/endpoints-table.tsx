import type { EndpointView } from "@/lib/control/data/alerts/endpoints";
import { AlertTable, DisableCell } from "@/components/alerts/alert-table";
import type { ActionResult } from "@/components/forms/action-result";

// Webhook endpoints: where messages go, in which format, and the secret's prefix.

const COLUMNS = ["Name", "URL", "Format", "Secret", "State"];

export function EndpointsTable({
  slug,
  endpoints,
  canAdmin,
  disable,
}: {
  slug: string;
  endpoints: EndpointView[];
  canAdmin: boolean;
  /** the page's server action */
  disable: (input: { tenant: string; name: string }) => Promise<ActionResult<unknown>>;
}) {
  if (endpoints.length === 0) return <p className="empty">No endpoints yet.</p>;
  return (
    <AlertTable testId="alert-endpoints" columns={COLUMNS} actions={canAdmin}>
      {endpoints.map((e) => (
        <tr key={e.id} data-testid={`endpoint-${e.name}`}>
          <th scope="row" className="mono">
            {e.name}
          </th>
          <td className="mono wrap">{e.url}</td>
          <td>{e.format}</td>
          <td className="mono">{e.secretPrefix}…</td>
          <td>
            <span className={`badge ${e.disabledAt ? "badge-danger" : "badge-ok"}`}>
              {e.disabledAt ? "disabled" : "active"}
            </span>
            {e.allowPrivate && <span className="badge">private network allowed</span>}
          </td>
          {canAdmin && (
            <DisableCell
              disabled={e.disabledAt !== null}
              confirmLabel="Disable endpoint"
              question={`Disable ${e.name}? Its rules stop and nothing more is sent to it.`}
              action={disable.bind(null, { tenant: slug, name: e.name })}
            />
          )}
        </tr>
      ))}
    </AlertTable>
  );
}
