// sluice alerts endpoints|rules|deliveries --tenant SLUG ...: picks the alerts command from
// the positionals (`list` when none is given) and hands it the flags it reads.
import { CliError } from "../errors";
import type { Io } from "../io";
import type { Connection } from "../options";
import { endpointsAdd, endpointsDisable, endpointsList, type EndpointFlags } from "./alerts-endpoints";
import { deliveriesList, rulesAdd, rulesDisable, rulesList, type RuleFlags } from "./alerts-rules";

export type AlertsFlags = EndpointFlags & RuleFlags & { tenant?: string };

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function tenantOf(flags: AlertsFlags): string {
  if (flags.tenant === undefined) throw new CliError("sluice alerts needs --tenant SLUG.");
  if (!SLUG.test(flags.tenant))
    throw new CliError(`--tenant: "${flags.tenant}" is not a tenant slug (1-63 of a-z, 0-9 and -).`);
  return flags.tenant;
}

function tooMany(args: string[], allowed: number): void {
  if (args.length > allowed) throw new CliError(`Unexpected argument "${args[allowed]}". See sluice --help.`);
}

export async function alerts(
  connection: () => Connection,
  io: Io,
  json: boolean,
  positionals: string[],
  flags: AlertsFlags,
): Promise<number> {
  const [group, action = "list", ...args] = positionals;
  if (group === "deliveries") {
    tooMany(positionals, 1);
    return deliveriesList(connection(), io, json, tenantOf(flags), flags.limit);
  }
  // Each action takes at most this many arguments after its name.
  const arity: Record<string, number> = { list: 0, add: group === "endpoints" ? 2 : 1, disable: 1 };
  if ((group === "endpoints" || group === "rules") && !Object.hasOwn(arity, action))
    throw new CliError(`Unknown alerts ${group} command "${action}": list, add or disable.`);
  if (group === "endpoints" || group === "rules") tooMany(args, arity[action]!);
  if (group === "endpoints") {
    const tenant = tenantOf(flags);
    if (action === "list") return endpointsList(connection(), io, json, tenant);
    if (action === "add") return endpointsAdd(connection(), io, json, tenant, args, flags);
    return endpointsDisable(connection(), io, json, tenant, args[0]);
  }
  if (group === "rules") {
    const tenant = tenantOf(flags);
    if (action === "list") return rulesList(connection(), io, json, tenant);
    if (action === "add") return rulesAdd(connection(), io, json, tenant, args[0], flags);
    return rulesDisable(connection(), io, json, tenant, args[0]);
  }
  throw new CliError(
    `${group === undefined ? "sluice alerts needs a command" : `Unknown alerts command "${group}"`}: endpoints, rules or deliveries.`,
  );
}
