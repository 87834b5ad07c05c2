import "server-only";
import type { CompiledLimit, Snapshot } from "@/lib/config/compile";
import { degradedBody } from "@/lib/enforce/decision-body";
import { identityFor } from "@/lib/enforce/limit-specs";
import { DecisionTemplate } from "@/lib/enforce/render/decision-template";
import { renderBody, type RenderedDecision } from "@/lib/enforce/render/rendered";
import { resolvedOf, type Resolved, type Target } from "@/lib/enforce/resolve";
import { prepareCheck } from "@/lib/limiter/evaluate-many";
import { encodeKeyPart, limitKey, ownerKeyPrefix } from "@/lib/limiter/keys";
import type { LimitArgs, LimitSpec } from "@/lib/limiter/types";

// What a check resolves to under the current config version, apart from its subject: the
// limits its tenant, key and resolved route patterns meet, their counters' Redis keys and
// script arguments (validated once), the deny cache's signature and the answer's text
// (decision-template.ts). Real traffic repeats few keys and routes but sees subjects and
// route ids by the hundred thousand (issue 20): keyed by the key and the resolved patterns
// (never the raw route or the subject), a shape serves every subject and id, and a new
// subject costs only its own part, the Redis key of the limits counted per subject
// (subjectParts). Cleared on every new version; bounded in entries and in bytes, the oldest
// going first.

export interface CheckShape {
  resolved: Resolved;
  /** per limit; a subject limit's slot holds a placeholder replaced per check */
  keys: string[];
  specs: LimitSpec[];
  rules: LimitArgs[];
  /** the indexes of the limits counted per subject */
  subjectSlots: number[];
  /** the deny cache's signature (subject appended when one counts), null with a shadow limit */
  signature: string | null;
  template: DecisionTemplate;
  /** the answer when Redis is not reached in time, rendered on first need */
  degraded: RenderedDecision | null;
  /** an estimate of the memory it holds */
  bytes: number;
}

/** The degraded answer of a shape (every limit by its onStoreFailure), rendered once. */
export function degradedAnswer(shape: CheckShape, configVersion: number): RenderedDecision {
  return (shape.degraded ??= renderBody(degradedBody(shape.resolved, configVersion)));
}

/** The cache key of a target: tenant, key name and both resolved patterns (none holds a newline). */
export function shapeKeyOf(target: Target, hasSubject: boolean): string {
  const { routes } = target;
  return `${target.tenant.slug}\n${target.key?.name ?? ""}\n${routes.global ?? ""}\n${routes.tenant ?? ""}\n${hasSubject ? "s" : "-"}`;
}

/** Builds a shape; throws RangeError for rules the limiter refuses. */
export function buildShape(
  target: Target,
  snapshot: Snapshot,
  hasSubject: boolean,
  version: number,
): CheckShape {
  // "" stands for every subject: subject limits get their slot, filled per check
  const resolved = resolvedOf(target, snapshot, hasSubject ? "" : null);
  const { limits, specs, hasShadow } = resolved.matched;
  const { keys, rules } = prepareCheck({ limits: specs, request: { cost: 1, dryRun: false } });
  const subjectSlots: number[] = [];
  for (let i = 0; i < limits.length; i++)
    if ((limits[i] as CompiledLimit).by === "subject") subjectSlots.push(i);
  const signature = hasShadow
    ? null
    : `${resolved.tenant.id}\n${resolved.keyId ?? ""}\n${resolved.route ?? ""}\n`;
  const who = { tenant: resolved.tenant.slug, key: resolved.keyName, route: resolved.route };
  const template = new DecisionTemplate(limits, who, version);
  let bytes = 1_024 + 4 * template.chars;
  for (const key of keys) bytes += 64 + 2 * key.length;
  return { resolved, keys, specs, rules, subjectSlots, signature, template, degraded: null, bytes };
}

/** A check's own part: the shape's keys and specs with its subject's counters in place. */
export function subjectParts(
  shape: CheckShape,
  subject: string | null,
): { keys: string[]; specs: LimitSpec[]; signature: string | null } {
  const { subjectSlots, signature } = shape;
  if (subject === null || subjectSlots.length === 0) return shape;
  const keys = shape.keys.slice();
  const specs = shape.specs.slice();
  const owner = `s.${subject}`;
  const tenantId = shape.resolved.tenant.id;
  // every subject limit but a sliding log shares the subject's one owner key
  const ownerKey = `${ownerKeyPrefix(tenantId)}${encodeKeyPart(owner)}`;
  for (const i of subjectSlots) {
    const base = specs[i] as LimitSpec;
    const limit = shape.resolved.matched.limits[i] as CompiledLimit;
    const spec: LimitSpec = { ...base, identity: identityFor(limit, owner), owner };
    specs[i] = spec;
    keys[i] = spec.rule.algorithm === "sliding_log" ? limitKey(spec) : ownerKey;
  }
  return { keys, specs, signature: signature === null ? null : `${signature}${subject}` };
}

export class CheckShapes {
  private readonly entries = new Map<string, CheckShape>();
  private total = 0;

  constructor(
    private readonly capacity = 10_000,
    private readonly maxBytes = 32 * 2 ** 20,
  ) {}

  get(shapeKey: string): CheckShape | undefined {
    return this.entries.get(shapeKey);
  }

  remember(shapeKey: string, shape: CheckShape): void {
    const old = this.entries.get(shapeKey);
    if (old) {
      this.entries.delete(shapeKey);
      this.total -= old.bytes;
    }
    while (
      this.entries.size > 0 &&
      (this.entries.size >= this.capacity || this.total + shape.bytes > this.maxBytes)
    ) {
      const oldest = this.entries.entries().next().value as [string, CheckShape];
      this.entries.delete(oldest[0]);
      this.total -= oldest[1].bytes;
    }
    this.entries.set(shapeKey, shape);
    this.total += shape.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.total;
  }
}
