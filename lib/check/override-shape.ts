import "server-only";
import { asciiJson } from "@/lib/shared/ascii-json";
import type { CompiledLimit, CompiledTenant } from "@/lib/check/published/snapshot-types";
import { DecisionTemplate } from "@/lib/check/render/decision-template";
import { flavourOf } from "@/lib/check/headers";
import type { RenderedDecision } from "@/lib/check/render/rendered";
import type { BlockTemplate, ShapeOverrides } from "@/lib/check/shape-types";

// What temporary overrides (docs/overrides.md) add to a check shape. Shapes without
// overrides carry null and cost a check nothing more. A limit overridden to 0 is a block:
// the check is denied in memory, without a Redis call and without counting (the limiter
// needs limits of 1 or more), until the override ends. Subject overrides change limits
// counted `by: subject` for one subject: a shape with such limits keeps the tenant's
// subject -> overridden tenant Map, and a check with a subject does one lookup in it.

/** The overrides part of a shape, or null when no override touches it. */
export function shapeOverrides(
  tenant: CompiledTenant,
  limits: readonly CompiledLimit[],
  hasSubjectLimits: boolean,
  who: { tenant: string; key: string | null; route: string | null },
  version: number,
): ShapeOverrides | null {
  const blocked = limits.filter((limit) => limit.override?.blocked === true);
  const subjects = hasSubjectLimits ? (tenant.subjectOverrides ?? null) : null;
  if (blocked.length === 0 && subjects === null) return null;
  const block =
    blocked.length === 0
      ? null
      : {
          template: new DecisionTemplate(blocked, who, version, flavourOf(tenant)),
          endsAt: blocked.map((limit) => Date.parse(limit.override?.endsAt ?? "")),
        };
  return { block, subjects, variants: new Map() };
}

/** A blocked check's answer under config `version`: denied by the blocked limits until their overrides end. */
export function renderBlock(
  block: BlockTemplate,
  keyName: string | null,
  now: number,
  version: number = block.template.version,
): RenderedDecision {
  // the limiter script's reply layout (decision-template.ts): verdict, time, then per limit
  // status 0 (rate limited), consumed, remaining, reset and retry times, wait
  const reply: number[] = [0, now];
  for (const end of block.endsAt) {
    const left = Math.max(0, end - now);
    reply.push(0, 0, 0, left, left, 0);
  }
  return block.template.render(reply, 0, asciiJson(keyName), 0, null, version);
}
