// sluice keys list|create|revoke TENANT [NAME]: a tenant's API keys. The secret of a new
// key is printed once, alone on stdout (the notes go to stderr), and never again.
import { CliError, EXIT_OK } from "../errors";
import { expectJson, request } from "../http";
import type { Io } from "../io";
import type { Connection } from "../options";
import type { CreatedKey, KeyList } from "../views";

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function slugArg(value: string | undefined, what: string): string {
  if (value === undefined) throw new CliError(`Missing the ${what} name.`);
  if (!SLUG.test(value)) throw new CliError(`${what}: "${value}" is not a name (1-63 of a-z, 0-9 and -).`);
  return value;
}

function keysPath(tenant: string): string {
  return `/api/admin/tenants/${encodeURIComponent(tenant)}/keys`;
}

export async function keysList(
  connection: Connection,
  io: Io,
  json: boolean,
  tenant?: string,
): Promise<number> {
  const slug = slugArg(tenant, "tenant");
  const body = expectJson("Listing keys", await request(connection, "GET", keysPath(slug))) as KeyList;
  if (json) io.out(JSON.stringify(body, null, 2));
  else if (body.keys.length === 0) io.out(`Tenant ${slug} has no API keys.`);
  else for (const key of body.keys) io.out(`${key.name}\t${key.prefix}…${key.revokedAt ? "\trevoked" : ""}`);
  return EXIT_OK;
}

export async function keysCreate(
  connection: Connection,
  io: Io,
  json: boolean,
  tenant?: string,
  name?: string,
): Promise<number> {
  const slug = slugArg(tenant, "tenant");
  const keyName = slugArg(name, "key");
  const reply = await request(connection, "POST", keysPath(slug), {
    body: JSON.stringify({ name: keyName }),
  });
  const created = expectJson("Creating the key", reply, 201) as CreatedKey;
  if (json) io.out(JSON.stringify(created, null, 2));
  else {
    io.err(`Created key ${created.name} of tenant ${slug}. Its secret is shown only now:`);
    io.out(created.key);
  }
  return EXIT_OK;
}

export async function keysRevoke(
  connection: Connection,
  io: Io,
  json: boolean,
  tenant?: string,
  name?: string,
): Promise<number> {
  const slug = slugArg(tenant, "tenant");
  const keyName = slugArg(name, "key");
  const reply = await request(connection, "DELETE", `${keysPath(slug)}/${encodeURIComponent(keyName)}`);
  const body = expectJson("Revoking the key", reply);
  io.out(json ? JSON.stringify(body, null, 2) : `Revoked key ${keyName} of tenant ${slug}.`);
  return EXIT_OK;
}
