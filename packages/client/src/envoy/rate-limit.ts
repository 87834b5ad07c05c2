// One `rate_limit` block -> one Sluice limit (fixed_window, as envoy counts), "unlimited", or
// "skip" when envoy itself would refuse it; what changes on the way is reported.
import { isMap, isSeq } from "yaml";
import { UNIT_WINDOWS } from "./mapping";
import { fields, scalarText, scalarValue, type EnvoySource } from "./source";

export interface EnvoyLimit {
  name: string;
  by: "subject" | "tenant";
  algorithm: "fixed_window";
  limit: number;
  window: string;
  mode?: "shadow";
}

const LIMIT_FIELDS = new Set(["unit", "requests_per_unit", "unlimited", "name", "replaces"]);
const MAX_LIMIT = 1_000_000_000;

export function readRateLimit(
  source: EnvoySource,
  node: unknown,
  flags: { shadow: boolean; byTenant: boolean },
  note: (node: unknown, message: string) => void,
): EnvoyLimit | "unlimited" | "skip" {
  if (!isMap(node)) {
    note(node, "rate_limit: must be a map; not imported");
    return "skip";
  }
  const field = new Map(fields(node).map((f) => [f.name, f]));
  for (const f of field.values())
    if (!LIMIT_FIELDS.has(f.name))
      note(f.keyNode, `unknown field "${f.name}": not imported (envoy refuses the file)`);
  const unitText = scalarText(field.get("unit")?.value);
  const unit = unitText === null ? null : unitText.toLowerCase();
  const window = unit === null ? undefined : UNIT_WINDOWS[unit];
  const replaces = field.get("replaces");
  if (replaces !== undefined) {
    const names = isSeq(replaces.value)
      ? replaces.value.items.map((item) => (isMap(item) ? scalarText(item.get("name", true)) : null))
      : [];
    note(
      replaces.keyNode,
      `replaces ${names.map((n) => `"${n ?? ""}"`).join(", ")}: not carried over (Sluice has no limit that drops another), both limits apply`,
    );
  }
  if (scalarValue(field.get("unlimited")?.value) === true) {
    if (window !== undefined) {
      note(field.get("unit")?.keyNode, "unlimited with a unit: not imported (envoy refuses the file)");
      return "skip";
    }
    return "unlimited";
  }
  if (window === undefined) {
    note(
      field.get("unit")?.value ?? node,
      `unit "${unitText ?? ""}": not a unit (second, minute, hour, day, week, month, year); not imported`,
    );
    return "skip";
  }
  const perUnit = scalarValue(field.get("requests_per_unit")?.value) ?? 0;
  if (typeof perUnit !== "number" || !Number.isInteger(perUnit) || perUnit < 0 || perUnit > 4_294_967_295) {
    note(
      field.get("requests_per_unit")?.value,
      "requests_per_unit: must be a whole number 0..4294967295; not imported",
    );
    return "skip";
  }
  const limit: EnvoyLimit = {
    name:
      perUnit === 0 && field.get("name") === undefined
        ? "deny-all"
        : limitName(scalarText(field.get("name")?.value), unit!),
    by: flags.byTenant ? "tenant" : "subject",
    algorithm: "fixed_window",
    limit: Math.min(Math.max(perUnit, 1), MAX_LIMIT),
    window: perUnit === 0 ? "365d" : window,
  };
  if (flags.shadow) limit.mode = "shadow";
  const at = field.get("requests_per_unit")?.value ?? node;
  if (perUnit === 0)
    note(at, "requests_per_unit: 0 (deny all): Sluice's smallest limit is 1, imported as 1 per 365 days");
  if (perUnit > MAX_LIMIT)
    note(at, `requests_per_unit: ${perUnit} is past Sluice's largest limit, imported as ${MAX_LIMIT}`);
  return limit;
}

/** envoy's name in Sluice's spelling ([a-z0-9-]{1,63}), or per-<unit> without one. */
function limitName(name: string | null, unit: string): string {
  const spelt = (name ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63)
    .replace(/-+$/, "");
  return spelt === "" ? `per-${unit}` : spelt;
}
