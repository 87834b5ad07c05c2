// sluice check, sluice state, sluice reset: one decision, the counters a check would meet
// (read without consuming), and clearing one limit's counters.
import { CliError, EXIT_CHANGES, EXIT_OK } from "../errors";
import { expectJson, request } from "../http";
import type { Io } from "../io";
import type { Connection } from "../options";
import type { Decision, ResetAnswer, StateAnswer } from "../views";

export interface CounterFlags {
  "api-key"?: string;
  tenant?: string;
  key?: string;
  route?: string;
  subject?: string;
  cost?: string;
  limit?: string;
  "dry-run"?: boolean;
}

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`--${flag}: must be a whole number of at least 1.`);
  return n;
}

/** Exit 0 when allowed, 1 when denied (so scripts can branch on it). */
export async function check(
  connection: Connection,
  io: Io,
  json: boolean,
  flags: CounterFlags,
): Promise<number> {
  if (flags["api-key"] === undefined && flags.tenant === undefined)
    throw new CliError(
      "Give --api-key KEY, or --tenant SLUG (with --key NAME) and a service or admin token.",
    );
  const body = {
    apiKey: flags["api-key"],
    tenant: flags.tenant,
    key: flags.key,
    route: flags.route,
    subject: flags.subject,
    cost: positiveInt(flags.cost, "cost"),
    dryRun: flags["dry-run"] ? true : undefined,
  };
  const reply = await request(connection, "POST", "/api/check", { body: JSON.stringify(body) });
  const decision = expectJson("The check", reply) as Decision;
  if (json) io.out(JSON.stringify(decision, null, 2));
  else {
    const head = decision.allowed ? "allowed" : `denied${decision.reason ? ` (${decision.reason})` : ""}`;
    const retry = decision.retryAfterMs ? `, retry after ${decision.retryAfterMs} ms` : "";
    io.out(`${head}: remaining ${decision.remaining ?? "-"}${retry}`);
    for (const l of decision.limits ?? [])
      io.out(`  ${l.allowed ? "ok  " : "DENY"} ${l.name}: ${l.remaining ?? "-"} of ${l.limit} left`);
  }
  return decision.allowed ? EXIT_OK : EXIT_CHANGES;
}

function counterQuery(flags: CounterFlags): URLSearchParams {
  if (flags.tenant === undefined) throw new CliError("--tenant: required (the tenant's slug).");
  const query = new URLSearchParams({ tenant: flags.tenant });
  for (const name of ["key", "route", "subject"] as const) {
    const value = flags[name];
    if (value !== undefined) query.set(name, value);
  }
  return query;
}

export async function state(
  connection: Connection,
  io: Io,
  json: boolean,
  flags: CounterFlags,
): Promise<number> {
  const reply = await request(connection, "GET", `/api/admin/state?${counterQuery(flags)}`);
  const answer = expectJson("Reading the state", reply) as StateAnswer;
  if (json) io.out(JSON.stringify(answer, null, 2));
  else {
    for (const l of answer.limits) {
      const verdict = l.wouldAllow ? "would allow" : `would deny, retry after ${l.retryAfterMs ?? "?"} ms`;
      io.out(`${l.name} (${l.level}): ${l.remaining} of ${l.limit} per ${l.windowMs} ms left; ${verdict}`);
    }
    for (const s of answer.skipped) io.out(`${s.name}: skipped (${s.reason})`);
    if (answer.limits.length === 0 && answer.skipped.length === 0) io.out("No limit applies.");
  }
  return EXIT_OK;
}

export async function reset(
  connection: Connection,
  io: Io,
  json: boolean,
  flags: CounterFlags,
): Promise<number> {
  if (flags.limit === undefined) throw new CliError("--limit: required (the limit's name).");
  const body = Object.fromEntries([...counterQuery(flags), ["limit", flags.limit]]);
  const reply = await request(connection, "POST", "/api/admin/reset", { body: JSON.stringify(body) });
  const answer = expectJson("The reset", reply) as ResetAnswer;
  io.out(
    json
      ? JSON.stringify(answer, null, 2)
      : `Reset ${answer.limit}: ${answer.deleted} counter${answer.deleted === 1 ? "" : "s"} cleared.`,
  );
  return EXIT_OK;
}
