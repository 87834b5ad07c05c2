// sluice import-envoy FILE --plan NAME [--tenant SLUG] [--out FILE] [--apply | --dry-run]:
// envoyproxy/ratelimit's YAML file as a Sluice document (docs/envoy-migration.md). Without
// --apply the conversion is local: the document on stdout (or --out), the report on stderr.
// --apply and --dry-run send the envoy file to the server (PUT ?format=envoy), which converts
// it with the same code and imports it, so what is printed is what the server did.
import { writeFile } from "node:fs/promises";
import { convertEnvoyConfig, type ReportLine } from "../../envoy";
import { documentYaml } from "../document-yaml";
import { CliError, EXIT_CHANGES, EXIT_FAILURE, EXIT_OK } from "../errors";
import { expectJson, isApiError, request } from "../http";
import type { Io } from "../io";
import type { Connection } from "../options";
import type { ImportAnswer } from "../views";

export interface ImportEnvoyFlags {
  plan?: string;
  tenant?: string;
  out?: string;
  apply?: boolean;
  "dry-run"?: boolean;
}

interface EnvoyAnswer extends ImportAnswer {
  envoy: { domain: string; tenant: string; report: ReportLine[] };
}

export async function importEnvoy(
  file: { name: string; text: string },
  flags: ImportEnvoyFlags,
  io: Io,
  json: boolean,
  connection: () => Connection,
): Promise<number> {
  if (flags.plan === undefined)
    throw new CliError("sluice import-envoy needs --plan NAME (the tenant's plan).");
  const options = { plan: flags.plan, ...(flags.tenant === undefined ? {} : { tenant: flags.tenant }) };
  if (flags.apply || flags["dry-run"]) {
    if (flags.out !== undefined)
      throw new CliError("--out writes the converted file; not with --apply or --dry-run.");
    return sendToServer(file, options, flags["dry-run"] === true, io, json, connection());
  }
  const converted = convertEnvoyConfig(file.text, options);
  if (!converted.ok)
    throw new CliError(
      `${file.name} cannot be converted.`,
      EXIT_FAILURE,
      reportLines(file.name, converted.errors),
    );
  const yaml = `# ${converted.domain}: converted from ${file.name} by sluice import-envoy (docs/envoy-migration.md)\n${documentYaml(converted.document)}`;
  if (json)
    io.out(
      JSON.stringify(
        { tenant: converted.tenant, report: converted.report, document: converted.document },
        null,
        2,
      ),
    );
  else if (flags.out === undefined) io.out(yaml);
  if (flags.out !== undefined) await writeFile(flags.out, yaml);
  if (!json) {
    for (const line of reportLines(file.name, converted.report)) io.err(line);
    const routes = converted.document.tenants[0].routes.length;
    io.err(
      `Domain ${converted.domain} -> tenant ${converted.tenant}: ${routes} route${routes === 1 ? "" : "s"}; ${converted.report.length} line${converted.report.length === 1 ? "" : "s"} reported.`,
    );
  }
  return EXIT_OK;
}

function reportLines(name: string, lines: readonly ReportLine[]): string[] {
  return lines.map((line) => `${name}:${line.line}: ${line.message}`);
}

async function sendToServer(
  file: { name: string; text: string },
  options: { plan: string; tenant?: string },
  dryRun: boolean,
  io: Io,
  json: boolean,
  connection: Connection,
): Promise<number> {
  const query = new URLSearchParams({ format: "envoy", dryRun: String(dryRun), ...options });
  const reply = await request(connection, "PUT", `/api/admin/config?${query}`, {
    body: file.text,
    contentType: "application/yaml",
  });
  if (reply.status === 422 && isApiError(reply.json)) {
    const errors = (reply.json.errors ?? []) as { path: string; message: string; line?: number }[];
    const lines = errors.map((e) =>
      e.line !== undefined
        ? `${file.name}:${e.line}: ${e.message}`
        : `${file.name}: ${e.path ? `${e.path}: ` : ""}${e.message}`,
    );
    throw new CliError(reply.json.error.message, EXIT_FAILURE, lines);
  }
  const answer = expectJson(dryRun ? "Dry run" : "Import", reply) as EnvoyAnswer;
  if (json) {
    io.out(JSON.stringify(answer, null, 2));
    return dryRun && answer.changes.length > 0 ? EXIT_CHANGES : EXIT_OK;
  }
  for (const line of reportLines(file.name, answer.envoy.report)) io.err(line);
  const count = answer.changes.length;
  const changes = answer.changes.map((c) => `  ${c.action} ${c.target} ${c.name}`).join("\n");
  if (count === 0) io.out(`No change: tenant ${answer.envoy.tenant} already holds ${file.name}.`);
  else if (dryRun)
    io.out(
      `${count} change${count === 1 ? "" : "s"} would be applied to tenant ${answer.envoy.tenant}:\n${changes}`,
    );
  else
    io.out(
      `Applied ${count} change${count === 1 ? "" : "s"} to tenant ${answer.envoy.tenant}; config version ${answer.configVersion}.\n${changes}`,
    );
  return dryRun && count > 0 ? EXIT_CHANGES : EXIT_OK;
}
