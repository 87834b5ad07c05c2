// GET /api/admin/config: export the configuration document (YAML when Accept asks for
// application/yaml, else JSON); a tenant-scoped caller gets only its tenant(s).
// PUT /api/admin/config: import a document, all-or-nothing (docs/configuration.md). `?prune=true`
// deletes unlisted tenants; `?dryRun=true` answers the changes without applying them, with a
// what-if replay of each changed tenant or key limit over the last hour (docs/replay.md).
// `?format=envoy&plan=...` takes envoyproxy/ratelimit's YAML file instead, converted into one
// tenant (docs/envoy-migration.md); the answer adds `envoy`: the tenant and the report.
import { z } from "zod";
import { documentResponse, locatedIn, readDocumentBody } from "@/lib/control/api/config-document";
import { envoyOptions, readEnvoyBody, refuseEnvoyOptions } from "@/lib/control/api/envoy-document";
import { ImportQuery } from "@/lib/control/api/import-query";
import { parseQuery } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { exportConfig } from "@/lib/control/data/export-config";
import { importConfig } from "@/lib/control/data/import-config";
import { assertMayImport } from "@/lib/control/config/import/import-access";
import { oneAtATime } from "@/lib/control/config/document/worker/one-at-a-time";
import { documentReplays } from "@/lib/control/replay/document-replays";

export const GET = withAdmin(async ({ request, principal }) => {
  parseQuery(request, z.strictObject({}));
  return documentResponse(request, await exportConfig(principal));
});

export const PUT = withAdmin(async ({ request, principal, requestId }) => {
  const query = parseQuery(request, ImportQuery);
  const envoy = query.format === "envoy" ? envoyOptions(query) : null;
  if (envoy === null) refuseEnvoyOptions(query);
  assertMayImport(principal); // before the body is read or parsed
  // one import or preview per principal at a time (409 import_in_progress, Retry-After)
  return oneAtATime(principal, async () => {
    const read = envoy
      ? await readEnvoyBody(request, principal, envoy)
      : await readDocumentBody(request, principal);
    const { input, positions, checked } = read;
    const extra = "envoy" in read ? { envoy: read.envoy } : {};
    const result = await locatedIn(positions, () =>
      importConfig(principal, input, { prune: query.prune, dryRun: query.dryRun, requestId, checked }),
    );
    if (!query.dryRun) return Response.json({ ...result, dryRun: false, ...extra });
    return Response.json({
      ...result,
      dryRun: true,
      replay: await documentReplays(principal, input),
      ...extra,
    });
  });
});
