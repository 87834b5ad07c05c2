// sluice config export | diff FILE | apply FILE: the configuration as code. diff is the
// server's dry run (PUT ?dryRun=true), so it says exactly what apply would do.
import { documentErrorLines, readDocumentFile, type DocumentFile } from "../document-file";
import { CliError, EXIT_CHANGES, EXIT_FAILURE, EXIT_OK } from "../errors";
import { exportScopedTo } from "../export-scope";
import { expectJson, failure, isApiError, request } from "../http";
import type { Io } from "../io";
import { unifiedDiff } from "../line-diff";
import { replayLines } from "../replay-lines";
import type { Connection } from "../options";
import type { ChangeItem, ImportAnswer } from "../views";

export interface ConfigContext {
  connection: Connection;
  io: Io;
  json: boolean;
  stdin: () => Promise<string>;
}

export async function configExport(ctx: ConfigContext): Promise<number> {
  const accept = ctx.json ? "application/json" : "application/yaml";
  const reply = await request(ctx.connection, "GET", "/api/admin/config", { accept });
  if (reply.status !== 200) throw failure("Export", reply);
  ctx.io.out(ctx.json ? `${JSON.stringify(reply.json, null, 2)}\n` : reply.text);
  return EXIT_OK;
}

async function putDocument(ctx: ConfigContext, file: DocumentFile, dryRun: boolean, prune: boolean) {
  const query = new URLSearchParams({ dryRun: String(dryRun), prune: String(prune) });
  const reply = await request(ctx.connection, "PUT", `/api/admin/config?${query}`, {
    body: file.text,
    contentType: file.contentType,
  });
  if (reply.status === 422 && isApiError(reply.json)) {
    const lines = documentErrorLines(file, reply.json);
    throw new CliError(reply.json.error.message, EXIT_FAILURE, lines);
  }
  return expectJson(dryRun ? "Dry run" : "Apply", reply) as ImportAnswer;
}

function changeLines(changes: ChangeItem[]): string[] {
  const sign: Record<string, string> = { create: "+", update: "~", delete: "-" };
  return changes.map((c) => `  ${sign[c.action] ?? "?"} ${c.action} ${c.target} ${c.name}`);
}

export async function configDiff(ctx: ConfigContext, fileName: string, prune: boolean): Promise<number> {
  const file = await readDocumentFile(fileName, ctx.stdin);
  const answer = await putDocument(ctx, file, true, prune);
  if (ctx.json) {
    ctx.io.out(JSON.stringify({ changes: answer.changes, replay: answer.replay }, null, 2));
    return answer.changes.length === 0 ? EXIT_OK : EXIT_CHANGES;
  }
  if (answer.changes.length === 0) {
    ctx.io.out(`No changes: ${file.name} matches the configuration on the server.`);
    return EXIT_OK;
  }
  const count = answer.changes.length;
  ctx.io.out(
    `${count} change${count === 1 ? "" : "s"} would be applied:\n${changeLines(answer.changes).join("\n")}\n`,
  );
  const replay = replayLines(answer.replay);
  if (replay.length > 0) ctx.io.out(`${replay.join("\n")}\n`);
  const exported = await request(ctx.connection, "GET", "/api/admin/config", { accept: "application/yaml" });
  if (exported.status === 200) {
    const before = exportScopedTo(exported.text, file.input, prune);
    ctx.io.out(unifiedDiff(before, file.text, "server", file.name));
  }
  return EXIT_CHANGES;
}

export async function configApply(ctx: ConfigContext, fileName: string, prune: boolean): Promise<number> {
  const file = await readDocumentFile(fileName, ctx.stdin);
  const answer = await putDocument(ctx, file, false, prune);
  if (ctx.json) {
    ctx.io.out(JSON.stringify(answer, null, 2));
    return EXIT_OK;
  }
  if (answer.configVersion === null || answer.changes.length === 0) {
    ctx.io.out("No change: the server already has this configuration.");
    return EXIT_OK;
  }
  ctx.io.out(
    `Applied ${answer.changes.length} change${answer.changes.length === 1 ? "" : "s"}; config version ${answer.configVersion}.`,
  );
  ctx.io.out(changeLines(answer.changes).join("\n"));
  const created = answer.createdKeys ?? [];
  if (created.length > 0) {
    ctx.io.out("New keys (their secrets are shown only now):");
    ctx.io.out(created.map((k) => `  ${k.tenant}/${k.name}: ${k.secret ?? ""}`).join("\n"));
  }
  return EXIT_OK;
}
