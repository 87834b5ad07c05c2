import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { ConfigDocument } from "@/lib/control/config/document";
import { canonicalPlan, canonicalRoutes, canonicalTenant } from "@/lib/control/config/import/canonical";
import { db } from "@/lib/control/data/db";
import { readDocument } from "@/lib/control/data/read-document";
import { readTenantDoc } from "@/lib/control/data/edits/document-edit";
import { toYaml } from "@/lib/control/data/queries/config-yaml";
import {
  keptDocument,
  rollbackConfig,
  type RollbackInput,
  type RollbackResult,
} from "@/lib/control/data/config-rollback";

// What a rollback would do, before it is confirmed: today's configuration against the
// version's (as YAML, for the line diff: current -> target), and the dry run's result,
// which lists the overrides it would end and the alert rules it would disable or enable.

export interface RollbackPreview {
  current: string;
  target: string;
  result: RollbackResult;
}

function canonical(document: ConfigDocument): ConfigDocument {
  return {
    plans: (document.plans ?? []).map(canonicalPlan),
    routes: canonicalRoutes(document.routes ?? []),
    tenants: (document.tenants ?? []).map(canonicalTenant).sort((a, b) => (a.slug < b.slug ? -1 : 1)),
  };
}

export async function rollbackPreview(
  principal: Principal,
  input: Pick<RollbackInput, "version" | "tenant">,
): Promise<RollbackPreview> {
  // the dry run checks the rights and that the version was kept
  const result = await rollbackConfig(principal, { ...input, dryRun: true }, null);
  const kept = await keptDocument(input.version);
  if (input.tenant) {
    const slug = input.tenant;
    const current = canonicalTenant(await readTenantDoc(principal, slug, "viewer"));
    const target = kept.tenants?.find((t) => t.slug === slug);
    return { current: toYaml(current), target: target ? toYaml(canonicalTenant(target)) : "", result };
  }
  const current = await db().$transaction((tx) => readDocument(tx));
  return { current: toYaml(canonical(current)), target: toYaml(canonical(kept)), result };
}
