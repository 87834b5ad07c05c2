// sluice alerts endpoints [list|add|disable] --tenant SLUG: a tenant's webhook endpoints
// (docs/alerts.md). The signing secret of a new endpoint is printed once, alone on stdout
// (the note goes to stderr), and never again. The server checks every field.
import { CliError, EXIT_OK } from "../errors";
import { expectJson, request } from "../http";
import type { Io } from "../io";
import type { Connection } from "../options";
import type { CreatedEndpoint, EndpointList, EndpointRow } from "../views";

export interface EndpointFlags {
  format?: string;
  "allow-private"?: boolean;
}

/** The tenant's alerts path; the slug and any further segment are URL-encoded. */
export function alertsPath(tenant: string, ...segments: string[]): string {
  return ["", "api", "admin", "tenants", tenant, "alerts", ...segments].map(encodeURIComponent).join("/");
}

const line = (e: EndpointRow): string =>
  [
    e.name,
    e.url,
    e.format,
    `${e.secretPrefix}…`,
    e.disabledAt ? "disabled" : "active",
    ...(e.allowPrivate ? ["private addresses allowed"] : []),
  ].join("\t");

export async function endpointsList(
  connection: Connection,
  io: Io,
  json: boolean,
  tenant: string,
): Promise<number> {
  const reply = await request(connection, "GET", alertsPath(tenant, "endpoints"));
  const body = expectJson("Listing alert endpoints", reply) as EndpointList;
  if (json) io.out(JSON.stringify(body, null, 2));
  else if (body.endpoints.length === 0) io.out(`Tenant ${tenant} has no alert endpoints.`);
  else for (const e of body.endpoints) io.out(line(e));
  return EXIT_OK;
}

export async function endpointsAdd(
  connection: Connection,
  io: Io,
  json: boolean,
  tenant: string,
  args: string[],
  flags: EndpointFlags,
): Promise<number> {
  const [name, url] = args;
  if (name === undefined || url === undefined)
    throw new CliError("sluice alerts endpoints add needs a NAME and a URL.");
  const body = {
    name,
    url,
    ...(flags.format !== undefined ? { format: flags.format } : {}),
    ...(flags["allow-private"] ? { allowPrivate: true } : {}),
  };
  const reply = await request(connection, "POST", alertsPath(tenant, "endpoints"), {
    body: JSON.stringify(body),
  });
  const created = expectJson("Adding the alert endpoint", reply, 201) as CreatedEndpoint;
  if (json) io.out(JSON.stringify(created, null, 2));
  else {
    io.err(
      `Added endpoint ${created.endpoint.name} of tenant ${tenant}. Its signing secret is shown only now:`,
    );
    io.out(created.secret);
  }
  return EXIT_OK;
}

export async function endpointsDisable(
  connection: Connection,
  io: Io,
  json: boolean,
  tenant: string,
  name?: string,
): Promise<number> {
  if (name === undefined) throw new CliError("sluice alerts endpoints disable needs the endpoint's NAME.");
  const reply = await request(connection, "DELETE", alertsPath(tenant, "endpoints", name));
  const body = expectJson("Disabling the alert endpoint", reply);
  io.out(json ? JSON.stringify(body, null, 2) : `Disabled endpoint ${name} of tenant ${tenant}.`);
  return EXIT_OK;
}
