// envoyproxy/ratelimit's YAML file -> Sluice's configuration document, with a report of every
// line that could not be carried over exactly (docs/envoy-migration.md is the mapping).
import type { YAMLMap } from "yaml";
import { domainSlug, pathSegment } from "./mapping";
import { readRateLimit, type EnvoyLimit } from "./rate-limit";
import { asMap, asSeq, EnvoySource, fields, scalarText, scalarValue, type ReportLine } from "./source";

export type { ReportLine } from "./source";

export interface EnvoyConvertOptions {
  /** the plan of the tenant (required by Sluice's document) */
  plan: string;
  /** the tenant's slug; the domain's slug when left out */
  tenant?: string;
}

export interface ConvertedRoute {
  pattern: string;
  limits: EnvoyLimit[];
}

export interface ConvertedDocument {
  tenants: [{ slug: string; name: string; plan: string; routes: ConvertedRoute[] }];
}

export type EnvoyConversion =
  | { ok: true; document: ConvertedDocument; tenant: string; domain: string; report: ReportLine[] }
  /** the file cannot be converted at all: no domain, not YAML, not a map */
  | { ok: false; errors: ReportLine[] };

const ROOT_FIELDS = new Set(["domain", "descriptors"]);
const DESCRIPTOR_FIELDS = new Set([
  "key",
  "value",
  "rate_limit",
  "descriptors",
  "shadow_mode",
  "quota_mode",
  "detailed_metric",
  "value_to_metric",
  "share_threshold",
  "metadata",
]);
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface Segment {
  key: string;
  /** the value's path segment, its prefix's (`foo*`), or the parameter's name for any value */
  value: { literal: string } | { prefix: string } | { param: string };
}

/** envoy's trailing wildcard: `foo*` is any value starting with foo (one `*`, at the end). */
const isPrefixValue = (value: string | null): value is string =>
  value !== null && value.length > 1 && value.indexOf("*") === value.length - 1;

export function convertEnvoyConfig(text: string, options: EnvoyConvertOptions): EnvoyConversion {
  const source = new EnvoySource(text);
  if (source.syntaxErrors.length > 0) return { ok: false, errors: source.syntaxErrors };
  const root = asMap(source.root);
  if (root === null)
    return {
      ok: false,
      errors: [{ line: 1, message: "the file must be a map with domain and descriptors" }],
    };
  const report: ReportLine[] = [];
  let domain: string | null = null;
  let descriptors: unknown = undefined;
  for (const field of fields(root)) {
    if (field.name === "domain") domain = scalarText(field.value);
    else if (field.name === "descriptors") descriptors = field.value;
    else if (!ROOT_FIELDS.has(field.name)) report.push(unknownField(source, field.keyNode, field.name));
  }
  if (domain === null || domain === "")
    return {
      ok: false,
      errors: [{ line: source.lineOf(root), message: "domain: required (a non-empty string)" }],
    };
  const slug = options.tenant ?? domainSlug(domain);
  if (slug === null)
    return {
      ok: false,
      errors: [
        {
          line: source.lineOf(root),
          message: `domain "${domain}" makes no tenant slug ([a-z0-9-]{1,63}): name the tenant`,
        },
      ],
    };
  if (slug !== domain)
    report.unshift({
      line: source.lineOf(root),
      message: `domain "${domain}" is imported as tenant "${slug}"`,
    });
  const converter = new Converter(source, report);
  if (descriptors !== undefined && descriptors !== null) converter.list(descriptors, []);
  report.sort((a, b) => a.line - b.line);
  return {
    ok: true,
    document: {
      tenants: [{ slug, name: domain.slice(0, 200), plan: options.plan, routes: converter.routes }],
    },
    tenant: slug,
    domain,
    report,
  };
}

function unknownField(source: EnvoySource, node: unknown, name: string): ReportLine {
  return {
    line: source.lineOf(node),
    message: `unknown field "${name}": not imported (envoy refuses the file)`,
  };
}

class Converter {
  readonly routes: ConvertedRoute[] = [];
  /** pattern shape -> line of the entry that made it */
  private readonly shapes = new Map<string, number>();

  constructor(
    private readonly source: EnvoySource,
    private readonly report: ReportLine[],
  ) {}

  private note(node: unknown, message: string): void {
    this.report.push({ line: this.source.lineOf(node), message });
  }

  list(node: unknown, parents: Segment[]): void {
    const seq = asSeq(node);
    if (seq === null) {
      this.note(node, "descriptors: must be a list; not imported");
      return;
    }
    const seen = new Map<string, number>();
    for (const item of seq.items) {
      const map = asMap(item);
      if (map === null) this.note(item, "a descriptor must be a map; not imported");
      else this.descriptor(map, parents, seen);
    }
  }

  private descriptor(map: YAMLMap, parents: Segment[], seen: Map<string, number>): void {
    const field = new Map(fields(map).map((f) => [f.name, f]));
    for (const f of field.values())
      if (!DESCRIPTOR_FIELDS.has(f.name)) this.report.push(unknownField(this.source, f.keyNode, f.name));
    const key = scalarText(field.get("key")?.value);
    if (key === null || key === "") {
      this.note(map, "a descriptor without key: not imported, with the descriptors below it");
      return;
    }
    const valueField = field.get("value");
    const value = valueField === undefined ? null : scalarText(valueField.value);
    const composite = value === null || value === "" ? key : `${key}_${value}`;
    const earlier = seen.get(composite);
    if (earlier !== undefined) {
      this.note(
        map,
        `duplicate of the descriptor on line ${earlier} ("${composite}"): not imported (envoy refuses the file)`,
      );
      return;
    }
    seen.set(composite, this.source.lineOf(map));
    const share = scalarValue(field.get("share_threshold")?.value) === true;
    const wildcard = value === "*" || isPrefixValue(value);
    if (value !== null && value.includes("*") && !wildcard) {
      this.note(
        valueField?.value,
        `value "${value}" has a wildcard inside it: a Sluice route matches whole segments or a segment's prefix (a final *); not imported, with the descriptors below it`,
      );
      return;
    }
    if (share && !wildcard)
      this.note(
        field.get("share_threshold")?.keyNode,
        "share_threshold: only for wildcard values (envoy refuses the file); ignored",
      );
    for (const name of ["detailed_metric", "value_to_metric"] as const)
      if (scalarValue(field.get(name)?.value) === true)
        this.note(
          field.get(name)?.keyNode,
          `${name}: metrics only, ignored (Sluice records usage per tenant, key and route)`,
        );
    if (scalarValue(field.get("quota_mode")?.value) === true)
      this.note(
        field.get("quota_mode")?.keyNode,
        "quota_mode: not carried over (Sluice has no quota mode); imported as an ordinary limit",
      );
    if (field.has("metadata")) this.note(field.get("metadata")?.keyNode, "metadata: not carried over");
    const chain = [...parents, { key, value: this.valueSegment(key, value, parents) }];
    const nested = field.get("descriptors")?.value;
    const hasNested = nested !== undefined && nested !== null;
    const shadow = scalarValue(field.get("shadow_mode")?.value) === true;
    const rateLimitField = field.get("rate_limit");
    if (rateLimitField !== undefined && rateLimitField.value !== null) {
      const byTenant = share && wildcard;
      const read = readRateLimit(this.source, rateLimitField.value, { shadow, byTenant }, (node, message) =>
        this.note(node, message),
      );
      if (read !== "skip") this.addRoute(map, chain, read === "unlimited" ? [] : [read]);
    } else {
      if (shadow)
        this.note(field.get("shadow_mode")?.keyNode, "shadow_mode without rate_limit: nothing to shadow");
      // an entry with neither a limit nor entries below it matches with no limit (envoy's whitelist)
      if (!hasNested) this.addRoute(map, chain, []);
    }
    if (hasNested) this.list(nested, chain);
  }

  private valueSegment(key: string, value: string | null, parents: Segment[]): Segment["value"] {
    if (isPrefixValue(value)) return { prefix: pathSegment(value.slice(0, -1)) };
    if (value !== null && value !== "*" && value !== "") return { literal: pathSegment(value) };
    const used = new Set(parents.flatMap((p) => ("param" in p.value ? [p.value.param] : [])));
    const name = PARAM_NAME.test(key) && !used.has(key) ? key : `v${parents.length + 1}`;
    return { param: name };
  }

  private addRoute(node: unknown, chain: Segment[], limits: EnvoyLimit[]): void {
    const path = chain.map((s) => `/${pathSegment(s.key)}/${valueText(s.value, false)}`).join("");
    const shape = chain.map((s) => `/${pathSegment(s.key)}/${valueText(s.value, true)}`).join("");
    const earlier = this.shapes.get(shape);
    if (earlier !== undefined) {
      this.note(
        node,
        `matches the same descriptors as the entry on line ${earlier}, which is kept: not imported`,
      );
      return;
    }
    this.shapes.set(shape, this.source.lineOf(node));
    this.routes.push({ pattern: `* ${path}`, limits });
  }
}

/** A value's segment in a pattern; in a shape, any parameter name is the same ":". */
function valueText(value: Segment["value"], shape: boolean): string {
  if ("literal" in value) return value.literal;
  if ("prefix" in value) return `${value.prefix}*`;
  return shape ? ":" : `:${value.param}`;
}
