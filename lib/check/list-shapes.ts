import "server-only";
import { buildShape } from "@/lib/check/check-shapes";
import { renderBody, type RenderedDecision } from "@/lib/check/render/rendered";
import { flavourOf } from "@/lib/check/headers";
import type { Skip } from "@/lib/check/lists/list-matcher";
import type { CompiledLimit, CompiledTenant, LimitSet, Snapshot } from "@/lib/check/published/snapshot-types";
import type { CheckShape } from "@/lib/check/shape-types";
import type { Target } from "@/lib/check/resolve";
import type { DecisionBody } from "@/lib/check/types";

// What a list match does to a check (docs/configuration.md, allow and deny lists; the matcher in lists/). A deny is
// answered from memory: denied, reason deny_list, no limit counted, no Redis call. An allow
// counts the check without the limits it skips: a shape built once from the tenant without
// them and kept on the shape it varies (as subject overrides' shapes are), so a repeat is
// one Map lookup; skipping every limit leaves a shape without limits, answered at once.

/**
 * A denied check's answer under config `version`: nothing counted, no retry time (waiting
 * does not help). Rendered once per key name and version and kept on the shape, as the
 * deny cache keeps its answers: rendering per check made a list's denial dearer than one
 * from the deny cache.
 */
export function deniedByList(shape: CheckShape, keyName: string | null, version: number): RenderedDecision {
  let memo = shape.listDenials;
  if (memo === undefined || memo.version !== version)
    memo = shape.listDenials = { version, byKey: new Map() };
  let rendered = memo.byKey.get(keyName);
  if (rendered === undefined) {
    rendered = renderDenied(shape, keyName, version);
    // a shape serves one key set; its keys' names bound this, a flood of made-up ones does not pass resolve
    if (memo.byKey.size < 1_000) memo.byKey.set(keyName, rendered);
  }
  return rendered;
}

function renderDenied(shape: CheckShape, keyName: string | null, version: number): RenderedDecision {
  const { tenant, route } = shape.resolved;
  const body: DecisionBody = {
    allowed: false,
    reason: "deny_list",
    tenant: tenant.slug,
    key: keyName,
    route,
    limit: null,
    remaining: null,
    resetMs: null,
    retryAfterMs: null,
    waitMs: 0,
    limits: [],
    degraded: false,
    configVersion: version,
  };
  return renderBody(body, flavourOf(tenant));
}

function without(set: LimitSet, skip: ReadonlySet<string> | null): LimitSet {
  const kept = (limits: CompiledLimit[]) => (skip === null ? [] : limits.filter((l) => !skip.has(l.name)));
  const routed: LimitSet["routed"] = {};
  for (const [pattern, limits] of Object.entries(set.routed)) routed[pattern] = kept(limits);
  return { unrouted: kept(set.unrouted), routed };
}

/** The tenant without the limits an allow match skips, in every set a check may read. */
function skippedTenant(tenant: CompiledTenant, skip: Skip): CompiledTenant {
  const names = skip === null ? null : new Set(skip);
  const keys: CompiledTenant["keys"] = {};
  for (const [name, key] of Object.entries(tenant.keys))
    keys[name] = key.limits === null ? key : { ...key, limits: without(key.limits, names) };
  return {
    ...tenant,
    limits: without(tenant.limits, names),
    keyDefault: without(tenant.keyDefault, names),
    keys,
    // the skip applies after overrides: a subject override's shape is varied in turn
    subjectOverrides: undefined,
  };
}

/** The shape `shape`'s check counts with when an allow match skips `skip`. */
export function allowedShape(
  shape: CheckShape,
  target: Target,
  skip: Skip,
  snapshot: Snapshot,
  version: number,
): CheckShape {
  const id = skip === null ? "*" : skip.join(",");
  const variants = (shape.allowVariants ??= new Map());
  let variant = variants.get(id);
  if (variant === undefined) {
    const tenant = skippedTenant(shape.resolved.tenant, skip);
    variant = buildShape({ ...target, tenant }, snapshot, true, version);
    // one per distinct skip met: a handful per shape, since the names come from the lists
    if (variants.size < 64) variants.set(id, variant);
  }
  return variant;
}
