import { sha256Hex } from "@/lib/shared/secrets";
import type { CompiledTenant } from "@/lib/control/config/compile";
import { splitPublished, type PartChange } from "@/lib/check/published/parts";
import type { PublishedConfig, PublishedServiceToken } from "@/lib/check/published/published";
import type { VersionListener } from "@/lib/check/config-holder";
import type { ConfigIndex } from "@/lib/check/config-index";
import { ConfigState } from "@/lib/check/config-state";
import type { CheckInput } from "@/lib/check/types";
import { compiledLimit } from "./fixtures";

// Tenants each with one limit counted per tenant (or none), their keys and a published
// configuration of them, and the holder's part the check service reads driven by a real
// ConfigState: each version applied as the parts it changed, listeners told which tenants
// they touched (tests of the per-tenant caches, unit and integration).

export interface TenantSpec {
  slug: string;
  /** the tenant's one limit (fixed window, per tenant, an hour); null: no limits at all */
  limit: number | null;
  /** its keys (no limits of their own) */
  keys: string[];
  /** keys revoked */
  revoked?: string[];
  /** keys with a limit of their own (per key): name -> its limit */
  keyLimits?: Record<string, number>;
}

const hourly = (name: string, by: "tenant" | "key", limit: number) =>
  compiledLimit(name, by, { algorithm: "fixed_window", limit, windowMs: 3_600_000 });

/** A check with these fields, the others absent (cost 1, counted). */
export const checkInput = (fields: Partial<CheckInput>): CheckInput => ({
  apiKey: null,
  tenant: null,
  key: null,
  route: null,
  subject: null,
  cost: 1,
  dryRun: false,
  ...fields,
});

/** The API key secret of a key of the fixture. */
export const secretOf = (slug: string, name: string): string => `sk_${slug}_${name}`;

function compiled(spec: TenantSpec, idPrefix: string): CompiledTenant {
  const limits = spec.limit === null ? [] : [hourly("per-tenant", "tenant", spec.limit)];
  const set = { unrouted: limits, routed: {} };
  const id = `${idPrefix}-${spec.slug}`;
  const own = (name: string) => {
    const limit = spec.keyLimits?.[name];
    return limit === undefined
      ? null
      : { unrouted: [...limits, hourly("per-key", "key", limit)], routed: {} };
  };
  return {
    id,
    slug: spec.slug,
    name: spec.slug,
    plan: "free",
    status: "active",
    routes: [],
    limits: set,
    keyDefault: set,
    keys: Object.fromEntries(
      spec.keys.map((name) => [name, { id: `${id}-${name}`, name, limits: own(name) }]),
    ),
    keyNameById: Object.fromEntries(spec.keys.map((name) => [`${id}-${name}`, name])),
    service: null,
  };
}

/** The published configuration of these tenants at `version` (ids start with `idPrefix`). */
export function published(
  version: number,
  specs: TenantSpec[],
  idPrefix = "T",
  serviceTokens: Record<string, PublishedServiceToken> = {},
): PublishedConfig {
  const tenants = specs.map((spec) => compiled(spec, idPrefix));
  const keys: PublishedConfig["keys"] = {};
  for (const spec of specs)
    for (const name of spec.keys)
      keys[sha256Hex(secretOf(spec.slug, name))] = {
        tenant: spec.slug,
        name,
        expiresAt: null,
        revoked: spec.revoked?.includes(name) ?? false,
      };
  return {
    version,
    snapshot: {
      format: 1,
      version,
      routes: [],
      tenants: Object.fromEntries(tenants.map((t) => [t.slug, t])),
      tenantSlugById: Object.fromEntries(tenants.map((t) => [t.id, t.slug])),
    },
    keys,
    serviceTokens,
  };
}

/** The parts `to` changed from `from`, as a publish ships them (null: a part removed). */
export function changedParts(from: PublishedConfig | null, to: PublishedConfig): PartChange[] {
  const before = from === null ? new Map() : splitPublished(from);
  const after = splitPublished(to);
  const changes: PartChange[] = [];
  for (const [scope, part] of after)
    if (JSON.stringify(before.get(scope)) !== JSON.stringify(part)) changes.push([scope, part]);
  for (const scope of before.keys()) if (!after.has(scope)) changes.push([scope, null]);
  return changes;
}

/** What the check service reads of the config holder, applying versions as parts. */
export class PartsHolder {
  private readonly state = new ConfigState();
  current: ConfigIndex;
  private config: PublishedConfig | null = null;
  private readonly listeners: VersionListener[] = [];
  /** what each version touched, in order (null: possibly all) */
  readonly touched: Array<ReadonlySet<string> | null> = [];

  constructor(first: PublishedConfig) {
    this.current = this.state.current;
    this.publish(first);
  }

  onVersion(listener: VersionListener): void {
    this.listeners.push(listener);
  }

  onCountersReset(): void {}

  /** Applies the parts `next` changed, as the holder does with a version read from Redis. */
  publish(next: PublishedConfig): ReadonlySet<string> | null {
    const touched = this.state.apply(changedParts(this.config, next), next.version, Date.now());
    this.config = next;
    this.announce(touched);
    return touched;
  }

  /** A whole load (a new epoch): listeners told anything may have changed. */
  publishWhole(next: PublishedConfig): void {
    this.state.apply(changedParts(this.config, next), next.version, Date.now());
    this.config = next;
    this.announce(null);
  }

  private announce(touched: ReadonlySet<string> | null): void {
    this.current = this.state.current;
    this.touched.push(touched);
    for (const listener of this.listeners) listener(this.current, touched);
  }
}
