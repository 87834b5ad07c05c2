import type { EndpointView } from "@/lib/data/alerts/endpoints";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { disableEndpointAction } from "@/app/(dashboard)/_actions/alert-actions";

// Webhook endpoints: where messages go, in which format, and the secret's prefix.

export function EndpointsTable({
  slug,
  endpoints,
  canAdmin,
}: {
  slug: string;
  endpoints: EndpointView[];
  canAdmin: boolean;
}) {
  if (endpoints.length === 0) return <p className="empty">No endpoints yet.</p>;
  return (
    <div className="table-scroll">
      <table data-testid="alert-endpoints">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">URL</th>
            <th scope="col">Format</th>
            <th scope="col">Secret</th>
            <th scope="col">State</th>
            {canAdmin && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
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
                <td>
                  {!e.disabledAt && (
                    <ConfirmButton
                      label="Disable"
                      confirmLabel="Disable endpoint"
                      question={`Disable ${e.name}? Its rules stop and nothing more is sent to it.`}
                      action={disableEndpointAction.bind(null, { tenant: slug, name: e.name })}
                    />
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
