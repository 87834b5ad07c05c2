import "server-only";
import type { LimitArgs, LimitSpec } from "@/lib/check/limiter/types";
import type { CompiledTenant } from "@/lib/check/published/snapshot-types";
import type { DecisionTemplate } from "@/lib/check/render/decision-template";
import type { RenderedDecision } from "@/lib/check/render/rendered";
import type { Resolved } from "@/lib/check/resolve";
import type { DegradedCause } from "@/lib/check/types";
import type { LimitBy } from "@/lib/shared/limit-types";

// The types of a check shape (check-shapes.ts builds them) and of what temporary overrides
// add to one (override-shape.ts): apart, so the builders and the code that reads shapes
// import them without importing each other.

export interface CheckShape {
  /** the limits, tenant and route; its key is the one it was built for (any of its set) */
  resolved: Resolved;
  /** per limit; a key's or subject's limit slot holds the builder's, replaced per check */
  keys: string[];
  specs: LimitSpec[];
  rules: LimitArgs[];
  /** until when `rules` hold: its calendar limits' earliest period end; Infinity without any (calendar-rules.ts) */
  calendarUntil: number;
  /** the indexes of the limits counted per key, and per subject */
  keySlots: number[];
  subjectSlots: number[];
  /** with a shadow limit the deny cache stays out */
  hasShadow: boolean;
  template: DecisionTemplate;
  /** the builder's answers when Redis is not reached in time, by cause, rendered on first need (per version) */
  degraded: { version: number; byCause: Partial<Record<DegradedCause, RenderedDecision>> } | null;
  /** an estimate of the memory it holds */
  bytes: number;
  /** temporary overrides that meet it (override-shape.ts); null for nearly every shape */
  overrides: ShapeOverrides | null;
  /** the shapes of its checks that an allow list skips limits of, by skip (list-shapes.ts) */
  allowVariants?: Map<string, CheckShape>;
  /** its checks' answers when a deny list denies them, by key name, for one config version */
  listDenials?: { version: number; byKey: Map<string | null, RenderedDecision> };
  /** enforce limits with a penalty (penalty-blocks.ts); null for nearly every shape */
  penalties: ShapePenalties | null;
}

export interface BlockTemplate {
  /** the answer's text, naming the blocked limits only (they decide: nothing else is counted) */
  template: DecisionTemplate;
  /** per blocked limit, when its override ends (epoch ms): the retry time */
  endsAt: number[];
}

export interface ShapeOverrides {
  block: BlockTemplate | null;
  /** subject -> the tenant with that subject's overrides applied; null: none meet this shape */
  subjects: ReadonlyMap<string, CompiledTenant> | null;
  /** the shapes built for those subjects, on first use */
  variants: Map<string, CheckShape>;
}

/** A shape's enforce limits with a penalty (penalty-blocks.ts): their indexes, block entries and answer texts. */
export interface ShapePenalties {
  slots: number[];
  /** per slot: the tenant and the limit's block entry, the first half of a block's name */
  scopes: string[];
  /** per slot: whose counter the limit counts (the second half: "", the key id or the subject) */
  bys: LimitBy[];
  /** per slot, the answer naming that limit alone, made on first need */
  templates: (DecisionTemplate | undefined)[];
}
