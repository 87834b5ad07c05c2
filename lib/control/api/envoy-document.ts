import "server-only";
import { convertEnvoyConfig, type ReportLine } from "@sluice/client/envoy";
import { ApiError } from "@/lib/control/api/api-error";
import { JSON_BODY_LIMIT, readBodyText, requireFormat } from "@/lib/control/api/read-body";
import type { ImportQueryValues } from "@/lib/control/api/import-query";
import { checkedText, type CheckedText } from "@/lib/control/data/document-text";
import { ValidationFailed } from "@/lib/control/errors/errors";
import { MEMBER_BUDGET, OPERATOR_BUDGET } from "@/lib/control/config/document/worker/check-document";
import { isOperator, type Principal } from "@/lib/shared/principal";

// PUT /api/admin/config?format=envoy: the body is envoyproxy/ratelimit's YAML file, converted
// (docs/envoy-migration.md) into a document of one tenant, then imported like any document.
// The converter runs on this event loop (a 64 KiB file in about 50 ms warm on a busy machine, where
// Sluice's own documents past 8 KiB go to the document worker), so the body is kept small:
// it holds about 600 one-level chains, past a tenant's default cap of 200 routes.

export const ENVOY_BODY_LIMIT = JSON_BODY_LIMIT;

export interface EnvoyImport extends CheckedText {
  envoy: { domain: string; tenant: string; report: ReportLine[] };
}

/** The envoy options of the query: `plan` is required, `prune` refused, `tenant` optional. */
export function envoyOptions(query: ImportQueryValues): { plan: string; tenant?: string } {
  if (query.prune)
    throw new ApiError("invalid_request", "prune: not with format=envoy (it imports one tenant).", "prune");
  if (query.plan === undefined)
    throw new ApiError(
      "invalid_request",
      "plan: required with format=envoy (the plan of the domain's tenant).",
      "plan",
    );
  return query.tenant === undefined ? { plan: query.plan } : { plan: query.plan, tenant: query.tenant };
}

/** Sluice's own options only make sense for Sluice's format. */
export function refuseEnvoyOptions(query: ImportQueryValues): void {
  for (const field of ["plan", "tenant"] as const)
    if (query[field] !== undefined)
      throw new ApiError("invalid_request", `${field}: only with format=envoy.`, field);
}

/**
 * Reads and converts the envoy file, then parses and validates the converted document as an
 * import does. A file that cannot be converted is 422 with the line of each error; errors
 * of the converted document name its paths (they have no line in the envoy file).
 */
export async function readEnvoyBody(
  request: Request,
  principal: Principal,
  options: { plan: string; tenant?: string },
): Promise<EnvoyImport> {
  requireFormat(request, ["yaml", "json"], "yaml");
  const text = await readBodyText(request, ENVOY_BODY_LIMIT);
  const converted = convertEnvoyConfig(text, options);
  if (!converted.ok)
    throw new ValidationFailed(converted.errors.map((e) => ({ path: "", message: e.message, line: e.line })));
  const budget = isOperator(principal) ? OPERATOR_BUDGET : MEMBER_BUDGET;
  try {
    const checked = await checkedText(JSON.stringify(converted.document), "json", budget);
    const envoy = { domain: converted.domain, tenant: converted.tenant, report: converted.report };
    // positions of the JSON text we made would point nowhere the caller can see
    return { ...checked, positions: new Map(), envoy };
  } catch (error) {
    if (error instanceof ValidationFailed)
      throw new ValidationFailed(
        error.errors.map(({ path, message }) => ({ path, message })),
        error.total,
      );
    throw error;
  }
}
