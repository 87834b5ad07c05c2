"use client";

import type { LimitFields } from "@/lib/control/config/document";
import type { LiveCounter } from "@/lib/control/counters/live-utilization";
import { describeRule } from "@/components/limits/format-limit";
import { overrideEnd } from "@/components/ops/override-badge";
import { useRowCounters } from "@/components/limits/live-utilization";
import { useTimeZone } from "@/components/charts/time-zone-context";

// The "Effective rule" of a Limits tab row: the configured rule, or, while a temporary
// override is in force on it, the rule the checks meet now (the override's value, its burst
// scaled with it) with the configured one beside it. Read from the live counters, so the
// cell changes when an override starts or ends without a reload.

/** The rule under an override: its value, and the burst it holds (scaled by the server). */
export function overriddenText(fields: LimitFields, counter: LiveCounter): string {
  const value = counter.override?.value;
  if (value === "disabled") return "disabled";
  if (value === 0) return "0: every check denied";
  return describeRule({
    ...fields,
    limit: counter.inForce.limit,
    burst: counter.inForce.burst ?? undefined,
  });
}

export function EffectiveRuleCell({
  fields,
  name,
  route,
  owner,
}: {
  fields: LimitFields;
  name: string;
  route: string | null;
  owner: string;
}) {
  const zone = useTimeZone();
  const counters = useRowCounters(name, route, fields.by, owner);
  const overridden = counters.find((c) => c.override !== null);
  const configured = describeRule(fields);
  if (!overridden?.override) return <>{configured}</>;
  const onKey = owner === "tenant" && overridden.owner !== "tenant" ? ` on key ${overridden.owner}` : "";
  return (
    <span data-testid={`effective-${name}`}>
      <strong>{overriddenText(fields, overridden)}</strong>
      <span className="muted small">
        {" "}
        · override{onKey} until {overrideEnd(overridden.override.endsAt, new Date(), zone)} · configured{" "}
        <s>{configured}</s>
      </span>
    </span>
  );
}
