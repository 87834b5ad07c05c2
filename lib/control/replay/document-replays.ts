import "server-only";
import type { Principal } from "@/lib/shared/principal";
import {
  mergeLimitFields,
  resolveTenantInheritance,
  validateDocument,
  type ConfigDocument,
  type LimitFields,
  type LimitSlot,
} from "@/lib/control/config/document";
import { NotFoundError } from "@/lib/control/errors/errors";
import { documentForReplay } from "@/lib/control/data/replay-document";
import { runReplay, type ReplayContext } from "@/lib/control/replay/run-replay";
import type { ReplayResult, ReplayRule } from "@/lib/control/replay/types";
import type { LimitBy } from "@/lib/shared/limit-types";

// The replays a dry-run import answers with (PUT /api/admin/config?dryRun=true): every tenant
// or key limit whose effective values the document changes, replayed over the last hour
// against its effective values today. Bounded: at most MAX_DOCUMENT_REPLAYS per answer.

export const MAX_DOCUMENT_REPLAYS = 5;

export interface LimitReplay {
  tenant: string;
  key: string | null;
  limit: string;
  route: string | null;
  by: LimitBy;
  current: ReplayRule | null;
  proposed: ReplayRule;
  result: ReplayResult;
}

export interface DocumentReplays {
  replays: LimitReplay[];
  /** changed limits past MAX_DOCUMENT_REPLAYS, not replayed */
  leftOut: number;
}

interface Effective {
  tenant: string;
  key: string | null;
  name: string;
  route: string | null;
  fields: LimitFields;
}

function ruleOf(fields: LimitFields | undefined): ReplayRule | null {
  if (!fields || fields.disabled || !fields.algorithm || !fields.limit || !fields.windowMs) return null;
  return {
    algorithm: fields.algorithm,
    limit: fields.limit,
    windowMs: fields.windowMs,
    burst: fields.burst ?? null,
    action: fields.action ?? "reject",
    maxDelayMs: fields.maxDelayMs ?? null,
  };
}

function effective(document: ConfigDocument, scope: ConfigDocument): Map<string, Effective> {
  const out = new Map<string, Effective>();
  const add = (tenant: string, key: string | null, slots: LimitSlot[]) => {
    for (const slot of slots) {
      const fields = mergeLimitFields(slot.chain.map((d) => d.fields));
      const route = slot.declaredRoute ?? fields.route ?? null;
      out.set([tenant, key ?? "", slot.name, route ?? ""].join("\u0000"), {
        tenant,
        key,
        name: slot.name,
        route,
        fields,
      });
    }
  };
  const inheritance = { plans: scope.plans ?? [], routes: scope.routes ?? [] };
  (document.tenants ?? []).forEach((tenant, index) => {
    const resolved = resolveTenantInheritance(inheritance, tenant, index);
    add(tenant.slug, null, resolved.tenant);
    for (const [key, slots] of resolved.keys) add(tenant.slug, key, slots);
  });
  return out;
}

/** Call after the dry run succeeded: the input is then a valid document. */
export async function documentReplays(
  principal: Principal,
  input: unknown,
  ctx: ReplayContext = {},
): Promise<DocumentReplays> {
  const named = (input as { tenants?: unknown } | null)?.tenants;
  const slugs = Array.isArray(named)
    ? named.map((t: unknown) => (t as { slug?: unknown } | null)?.slug).filter((s) => typeof s === "string")
    : [];
  const current = await documentForReplay(slugs);
  const result = validateDocument(input, { plans: current.plans, routes: current.routes });
  if (!result.ok) return { replays: [], leftOut: 0 };
  const next = result.document;
  const before = effective(current, current);
  const after = effective(next, {
    ...current,
    plans: next.plans ?? current.plans,
    routes: next.routes ?? current.routes,
  });
  const changed: Array<{ id: string; limit: Effective; proposed: ReplayRule }> = [];
  for (const [id, limit] of after) {
    const proposed = ruleOf(limit.fields);
    const old = before.get(id);
    if (!proposed || (old && JSON.stringify(ruleOf(old.fields)) === JSON.stringify(proposed))) continue;
    if (old && old.fields.by !== limit.fields.by) continue; // a different counter owner: not comparable
    changed.push({ id, limit, proposed });
  }
  const replays: LimitReplay[] = [];
  for (const { id, limit, proposed } of changed.slice(0, MAX_DOCUMENT_REPLAYS)) {
    const current = ruleOf(before.get(id)?.fields);
    const by = limit.fields.by ?? "tenant";
    const query = { tenant: limit.tenant, by, proposed, current, minutes: 60 };
    const result = await runReplay(
      principal,
      { ...query, ...(limit.key ? { key: limit.key } : {}), ...(limit.route ? { route: limit.route } : {}) },
      ctx,
    ).catch((error: unknown) => {
      // a tenant the document creates has no row yet, and no traffic to replay
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (result)
      replays.push({
        tenant: limit.tenant,
        key: limit.key,
        limit: limit.name,
        route: limit.route,
        by,
        current,
        proposed,
        result,
      });
  }
  return { replays, leftOut: Math.max(0, changed.length - MAX_DOCUMENT_REPLAYS) };
}
