import "server-only";
import type { Snapshot } from "@/lib/check/published/snapshot-types";
import { recordedAnswer, type CheckAnswer } from "@/lib/check/check-answer";
import { buildShape, type CheckShape } from "@/lib/check/check-shapes";
import type { HotCheck } from "@/lib/check/hot-checks";
import { renderBlock, type ShapeOverrides } from "@/lib/check/override-shape";
import type { Target } from "@/lib/check/resolve";
import type { CheckInput } from "@/lib/check/types";

// A check whose subject has overrides of its own gets a shape built from the tenant with
// them applied (apply-overrides.ts), kept on the shape: as many as that tenant has subject
// overrides, dropped with the shape when its tenant changes (an override's start or end too).

/** The shape this subject's check uses: the given one unless the subject has overrides. */
export function subjectShape(
  shape: CheckShape,
  overrides: ShapeOverrides,
  target: Target,
  subject: string | null,
  snapshot: Snapshot,
  version: number,
): CheckShape {
  if (overrides.subjects === null || subject === null) return shape;
  const tenant = overrides.subjects.get(subject);
  if (tenant === undefined) return shape;
  let variant = overrides.variants.get(subject);
  if (variant === undefined) {
    variant = buildShape({ ...target, tenant }, snapshot, true, version);
    overrides.variants.set(subject, variant);
  }
  return variant;
}

/**
 * The shape a check with temporary overrides (override-shape.ts) counts with under config
 * `version`: its subject's own, or the hot check's; null when an override blocks it,
 * answered through `done` in memory, without counting.
 */
export function overriddenShape(
  hot: HotCheck,
  overrides: ShapeOverrides,
  input: CheckInput,
  snapshot: Snapshot,
  version: number,
  done: (answer: CheckAnswer) => void,
): CheckShape | null {
  const { key } = hot;
  const variant = subjectShape(hot.shape, overrides, hot.target, input.subject, snapshot, version);
  if (variant.overrides?.block) {
    const rendered = renderBlock(variant.overrides.block, key?.name ?? null, Date.now(), version);
    const tenantId = variant.resolved.tenant.id;
    done(recordedAnswer(rendered, tenantId, key?.id ?? null, variant.resolved.route, input));
    return null;
  }
  return variant;
}
