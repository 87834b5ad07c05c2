// sluice keys create-many TENANT --names a,b,c | --file keys.json [--expires ISO] [--out FILE]:
// up to 1,000 keys in one change (all or none). The secrets are shown only now: "name<TAB>
// secret" lines on stdout, or, with --out, written to a new file only its owner can read.
import { readFile, writeFile } from "node:fs/promises";
import { CliError, EXIT_OK } from "../errors";
import { expectJson, request } from "../http";
import type { Io } from "../io";
import type { Connection } from "../options";
import type { CreatedKey } from "../views";
import { slugArg } from "./keys";

export interface CreateManyFlags {
  names?: string;
  file?: string;
  expires?: string;
  out?: string;
}

interface KeyItem {
  name: string;
  expiresAt?: string;
}

/** A file holds `[{ "name", "expiresAt"? }]`, `["name", ...]` or `{ "keys": [...] }`. */
function itemsOf(value: unknown, file: string): KeyItem[] {
  const list: unknown = Array.isArray(value) ? value : (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list))
    throw new CliError(
      `${file}: expected a list of keys, [{ "name": ..., "expiresAt"?: ... }] or ["name", ...].`,
    );
  // the server checks each item and names the bad one (keys[3].name)
  return list.map((item: unknown) => (typeof item === "string" ? { name: item } : (item as KeyItem)));
}

async function readItems(flags: CreateManyFlags, stdin: () => Promise<string>): Promise<KeyItem[]> {
  if ((flags.names === undefined) === (flags.file === undefined))
    throw new CliError("sluice keys create-many needs --names a,b,c or --file FILE (one of them).");
  if (flags.names !== undefined)
    return flags.names
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== "")
      .map((name) => ({ name }));
  const file = flags.file ?? "-";
  let text: string;
  try {
    text = file === "-" ? await stdin() : await readFile(file, "utf8");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new CliError(`Cannot read ${file}: ${typeof code === "string" ? code : String(error)}.`);
  }
  try {
    return itemsOf(JSON.parse(text) as unknown, file);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${file} is not valid JSON; nothing was sent.`);
  }
}

export async function keysCreateMany(
  connection: Connection,
  io: Io,
  json: boolean,
  tenant: string | undefined,
  flags: CreateManyFlags,
  stdin: () => Promise<string>,
): Promise<number> {
  const slug = slugArg(tenant, "tenant");
  const items = await readItems(flags, stdin);
  const keys =
    flags.expires === undefined ? items : items.map((item) => ({ expiresAt: flags.expires, ...item }));
  const reply = await request(
    connection,
    "POST",
    `/api/admin/tenants/${encodeURIComponent(slug)}/keys/bulk`,
    {
      body: JSON.stringify({ keys }),
    },
  );
  const created = (expectJson("Creating the keys", reply, 201) as { keys: CreatedKey[] }).keys;
  const text = json
    ? JSON.stringify({ keys: created }, null, 2)
    : created.map((key) => `${key.name}\t${key.key}`).join("\n");
  if (flags.out === undefined) {
    io.err(`Created ${created.length} keys of tenant ${slug}. Their secrets are shown only now:`);
    io.out(text);
    return EXIT_OK;
  }
  try {
    // "wx": never over an existing file; 0600: the secrets are its owner's alone
    await writeFile(flags.out, `${text}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    io.out(text); // the keys exist now: their secrets must not be lost
    throw new CliError(
      `Created ${created.length} keys of tenant ${slug}, but could not write ${flags.out} (${typeof code === "string" ? code : String(error)}); their secrets are printed above.`,
    );
  }
  io.err(`Created ${created.length} keys of tenant ${slug}; their secrets are in ${flags.out} (mode 600).`);
  return EXIT_OK;
}
