// sluice overrides list|create|end: temporary overrides (docs/overrides.md). The server
// checks everything; a refusal comes back as its sentence naming the field.
import { CliError, EXIT_OK } from "../errors";
import { expectJson, request } from "../http";
import type { Io } from "../io";
import type { Connection } from "../options";
import type { OverrideList, OverrideRow } from "../views";

export interface OverrideFlags {
  tenant?: string;
  key?: string;
  subject?: string;
  limit?: string;
  value?: string;
  starts?: string;
  ends?: string;
  reason?: string;
}

const line = (o: OverrideRow): string =>
  [
    o.id,
    o.tenant,
    o.key ? `key ${o.key}` : o.subject ? `subject ${o.subject}` : "every check",
    o.limit,
    String(o.value),
    o.state,
    o.startsAt,
    o.endsAt,
    o.reason,
  ].join("\t");

export async function overridesList(
  connection: Connection,
  io: Io,
  json: boolean,
  tenant?: string,
): Promise<number> {
  const query = tenant === undefined ? "" : `?tenant=${encodeURIComponent(tenant)}`;
  const body = expectJson(
    "Listing overrides",
    await request(connection, "GET", `/api/admin/overrides${query}`),
  ) as OverrideList;
  if (json) io.out(JSON.stringify(body, null, 2));
  else if (body.overrides.length === 0) io.out("No overrides in force or waiting.");
  else for (const o of body.overrides) io.out(line(o));
  return EXIT_OK;
}

export async function overridesCreate(
  connection: Connection,
  io: Io,
  json: boolean,
  flags: OverrideFlags,
): Promise<number> {
  for (const name of ["tenant", "limit", "value", "ends", "reason"] as const)
    if (flags[name] === undefined) throw new CliError(`sluice overrides create needs --${name}.`);
  const value = flags.value === "disabled" ? "disabled" : Number(flags.value);
  const body = {
    tenant: flags.tenant,
    limit: flags.limit,
    value,
    endsAt: flags.ends,
    reason: flags.reason,
    ...(flags.starts !== undefined ? { startsAt: flags.starts } : {}),
    ...(flags.key !== undefined ? { key: flags.key } : {}),
    ...(flags.subject !== undefined ? { subject: flags.subject } : {}),
  };
  const reply = await request(connection, "POST", "/api/admin/overrides", { body: JSON.stringify(body) });
  const created = expectJson("Creating the override", reply, 201) as OverrideRow;
  if (json) io.out(JSON.stringify(created, null, 2));
  else io.out(line(created));
  return EXIT_OK;
}

export async function overridesEnd(
  connection: Connection,
  io: Io,
  json: boolean,
  id?: string,
): Promise<number> {
  if (id === undefined || !/^[a-z0-9]{1,40}$/.test(id))
    throw new CliError("sluice overrides end needs an override ID.");
  const reply = await request(connection, "POST", `/api/admin/overrides/${id}/end`, { body: "{}" });
  const ended = expectJson("Ending the override", reply) as OverrideRow;
  if (json) io.out(JSON.stringify(ended, null, 2));
  else io.out(line(ended));
  return EXIT_OK;
}
