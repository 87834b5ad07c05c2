import "server-only";
import type { Snapshot } from "@/lib/config/compile";
import { buildShape, type CheckShape } from "@/lib/enforce/check-shapes";
import type { ShapeOverrides } from "@/lib/enforce/override-shape";
import type { Target } from "@/lib/enforce/resolve";

// A check whose subject has overrides of its own gets a shape built from the tenant with
// them applied (apply-overrides.ts), kept on the shape: as many as that tenant has subject
// overrides, cleared with the shape at the next version or override start/end.

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
