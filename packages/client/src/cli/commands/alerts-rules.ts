// sluice alerts rules [list|add|disable] and alerts deliveries --tenant SLUG: a tenant's
// alert rules and its delivery log (docs/alerts.md). The server checks every field; a
// refusal comes back as its sentence naming the field (thresholdPct for --above, forSeconds
// for --for).
import { CliError, EXIT_OK } from "../errors";
import { expectJson, request } from "../http";
import type { Io } from "../io";
import type { Connection } from "../options";
import { alertsPath } from "./alerts-endpoints";
import type { DeliveryList, RuleList, RuleRow } from "../views";

export interface RuleFlags {
  kind?: string;
  endpoint?: string;
  limit?: string;
  key?: string;
  route?: string;
  above?: string;
  for?: string;
}

const ID = /^[a-z0-9]{1,40}$/;

/** A number when the text is one; else the text itself, so the server names the field. */
const numberOrText = (text: string): number | string => {
  const value = Number(text);
  return text.trim() !== "" && Number.isFinite(value) ? value : text;
};

const ruleLine = (r: RuleRow): string =>
  [
    r.id,
    r.name,
    r.kind,
    r.limitName ?? "-",
    r.thresholdPct === null ? "-" : `above ${r.thresholdPct}%`,
    `for ${r.forSeconds}s`,
    `to ${r.endpoint}`,
    r.keyName ? `key ${r.keyName}` : r.route ? `route ${r.route}` : "every check",
    r.disabledAt ? "disabled" : r.firing ? "firing" : "active",
  ].join("\t");

export async function rulesList(
  connection: Connection,
  io: Io,
  json: boolean,
  tenant: string,
): Promise<number> {
  const reply = await request(connection, "GET", alertsPath(tenant, "rules"));
  const body = expectJson("Listing alert rules", reply) as RuleList;
  if (json) io.out(JSON.stringify(body, null, 2));
  else if (body.rules.length === 0) io.out(`Tenant ${tenant} has no alert rules.`);
  else for (const r of body.rules) io.out(ruleLine(r));
  return EXIT_OK;
}

export async function rulesAdd(
  connection: Connection,
  io: Io,
  json: boolean,
  tenant: string,
  name: string | undefined,
  flags: RuleFlags,
): Promise<number> {
  if (name === undefined) throw new CliError("sluice alerts rules add needs the rule's NAME.");
  for (const flag of ["kind", "endpoint"] as const)
    if (flags[flag] === undefined) throw new CliError(`sluice alerts rules add needs --${flag}.`);
  const body = {
    name,
    kind: flags.kind,
    endpoint: flags.endpoint,
    ...(flags.limit !== undefined ? { limit: flags.limit } : {}),
    ...(flags.key !== undefined ? { key: flags.key } : {}),
    ...(flags.route !== undefined ? { route: flags.route } : {}),
    ...(flags.above !== undefined ? { thresholdPct: numberOrText(flags.above) } : {}),
    ...(flags.for !== undefined ? { forSeconds: numberOrText(flags.for) } : {}),
  };
  const reply = await request(connection, "POST", alertsPath(tenant, "rules"), {
    body: JSON.stringify(body),
  });
  const created = expectJson("Adding the alert rule", reply, 201) as RuleRow;
  io.out(json ? JSON.stringify(created, null, 2) : ruleLine(created));
  return EXIT_OK;
}

export async function rulesDisable(
  connection: Connection,
  io: Io,
  json: boolean,
  tenant: string,
  id?: string,
): Promise<number> {
  if (id === undefined || !ID.test(id))
    throw new CliError("sluice alerts rules disable needs a rule ID (sluice alerts rules list shows them).");
  const reply = await request(connection, "DELETE", alertsPath(tenant, "rules", id));
  const body = expectJson("Disabling the alert rule", reply);
  io.out(json ? JSON.stringify(body, null, 2) : `Disabled rule ${id} of tenant ${tenant}.`);
  return EXIT_OK;
}

export async function deliveriesList(
  connection: Connection,
  io: Io,
  json: boolean,
  tenant: string,
  limit?: string,
): Promise<number> {
  const query = limit === undefined ? "" : `?limit=${encodeURIComponent(limit)}`;
  const reply = await request(connection, "GET", `${alertsPath(tenant, "deliveries")}${query}`);
  const body = expectJson("Listing alert deliveries", reply) as DeliveryList;
  if (json) io.out(JSON.stringify(body, null, 2));
  else if (body.deliveries.length === 0) io.out(`Tenant ${tenant} has no alert deliveries.`);
  else
    for (const d of body.deliveries)
      io.out(
        [
          d.createdAt,
          d.event,
          d.rule,
          d.endpoint,
          d.status,
          `${d.attempts} attempt${d.attempts === 1 ? "" : "s"}`,
          d.responseCode === null ? "-" : String(d.responseCode),
          d.lastError ?? "",
        ].join("\t"),
      );
  return EXIT_OK;
}
