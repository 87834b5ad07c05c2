import "server-only";
import { SNAPSHOT_FORMAT } from "@/lib/check/published/snapshot-types";
import { applyTenantOverrides, overridesAt } from "@/lib/check/published/apply-overrides";
import type { PublishedConfig } from "@/lib/check/published/published";
import {
  splitPublished,
  withBareKeys,
  type GlobalPart,
  type KeyPart,
  type PartChange,
  type TenantPart,
} from "@/lib/check/published/parts";
import { keyNameId, type ConfigIndex, type KeyRecord } from "@/lib/check/config-index";
import { ListMatcher } from "@/lib/check/lists/list-matcher";
import { VerdictMemo } from "@/lib/check/lists/verdict-memo";
import { hasEntries, type PublishedLists } from "@/lib/check/lists/list-types";

/** The matcher of `lists`: the one `had` holds when it was read from the same lists. */
function matcherOf(lists: PublishedLists | undefined, had: ReadMatcher | undefined): ReadMatcher | undefined {
  if (!hasEntries(lists)) return undefined;
  if (had !== undefined && had.lists === lists) return had;
  return { lists, matcher: new ListMatcher(lists) };
}

interface ReadMatcher {
  lists: PublishedLists;
  matcher: ListMatcher;
}

// A server's configuration, kept in parts and applied change by change: a change rebuilds
// only the tenants it touched (a tenant's part, or one of its keys), so taking in a version
// costs what it changed, not the installation. The index checks read is updated in one
// synchronous step per change, so no check sees half of one. A whole load builds a fresh
// state off to the side (config-holder.ts) and swaps it in.

const EMPTY_GLOBAL: GlobalPart = { kind: "global", routes: [], serviceTokens: {} };

export class ConfigState {
  private global: GlobalPart = EMPTY_GLOBAL;
  private readonly tenantParts = new Map<string, TenantPart>();
  private readonly keyParts = new Map<string, KeyPart>();
  /** slug -> hash -> its key parts */
  private readonly keysOfTenant = new Map<string, Map<string, KeyPart>>();
  /** tenants with overrides: rebuilt at each override start or end */
  private readonly withOverrides = new Set<string>();
  private readonly keysByHash = new Map<string, KeyRecord>();
  private readonly keysByName = new Map<string, KeyRecord>();
  /** a rotated-out secret's hash -> the hash of the key part that names it as `previous` */
  private readonly retiredBy = new Map<string, string>();
  /** lists read per tenant, kept while its part's lists are the same object (a key change rebuilds the tenant) */
  private readonly readLists = new Map<string, ReadMatcher>();
  private readonly tenantLists = new Map<string, ListMatcher>();
  private globalLists: ReadMatcher | undefined;
  private readonly verdicts = new VerdictMemo();
  private index: ConfigIndex = {
    version: 0,
    snapshot: { format: SNAPSHOT_FORMAT, version: 0, routes: [], tenants: {}, tenantSlugById: {} },
    nextChangeAt: null,
    keysByHash: this.keysByHash,
    keysByName: this.keysByName,
    serviceTokens: new Map(),
    lists: { global: null, tenants: this.tenantLists, verdicts: this.verdicts },
  };

  get current(): ConfigIndex {
    return this.index;
  }

  /**
   * Applies one version's changed parts at `now`; returns the tenants whose configuration
   * changed, or null when the global part did (routes or service tokens: anything may).
   */
  apply(changes: Iterable<PartChange>, version: number, now: number): ReadonlySet<string> | null {
    const touched = new Set<string>();
    let global = false;
    for (const [scope, part] of changes) {
      if (scope === "g") {
        global = true;
        this.global = part?.kind === "global" ? part : EMPTY_GLOBAL;
      } else if (scope.startsWith("t:")) {
        const slug = scope.slice(2);
        if (part?.kind === "tenant") this.tenantParts.set(slug, part);
        else this.tenantParts.delete(slug);
        touched.add(slug);
      } else if (scope.startsWith("k:")) {
        this.applyKey(scope.slice(2), part?.kind === "key" ? part : null, touched);
      }
    }
    for (const slug of touched) this.rebuildTenant(slug, now);
    const { snapshot } = this.index;
    if (global) {
      snapshot.routes = this.global.routes;
      this.index.serviceTokens = new Map(Object.entries(this.global.serviceTokens));
      this.globalLists = matcherOf(this.global.lists, this.globalLists);
      if (this.global.lists !== undefined) snapshot.lists = this.global.lists;
      else delete snapshot.lists;
      this.index.lists = {
        global: this.globalLists?.matcher ?? null,
        tenants: this.tenantLists,
        verdicts: this.verdicts,
      };
    }
    snapshot.version = version;
    this.index = { ...this.index, version, nextChangeAt: this.nextChangeAt(now) };
    return global ? null : touched;
  }

  /** Re-applies the overrides at `now` (one started or ended); returns the tenants rebuilt. */
  reapplyOverrides(now: number): ReadonlySet<string> {
    const touched = new Set(this.withOverrides);
    for (const slug of touched) this.rebuildTenant(slug, now);
    this.index = { ...this.index, nextChangeAt: this.nextChangeAt(now) };
    return touched;
  }

  private applyKey(hash: string, part: KeyPart | null, touched: Set<string>): void {
    const { keysByHash, keysByName, retiredBy } = this;
    const old = this.keyParts.get(hash);
    if (old) {
      this.keysOfTenant.get(old.tenant)?.delete(hash);
      // A rotation changes a key's part (its scope is the new hash) in one version, in either
      // order: an entry another part now holds (the old secret, retired) stays.
      const record = retiredBy.has(hash) ? undefined : keysByHash.get(hash);
      if (record !== undefined) keysByHash.delete(hash);
      const nameId = keyNameId(old.tenant, old.name);
      if (record !== undefined && keysByName.get(nameId) === record) keysByName.delete(nameId);
      const previous = old.previous?.hash;
      if (previous !== undefined && retiredBy.get(previous) === hash) {
        keysByHash.delete(previous);
        retiredBy.delete(previous);
      }
      touched.add(old.tenant);
    }
    if (!part) {
      this.keyParts.delete(hash);
      return;
    }
    this.keyParts.set(hash, part);
    let own = this.keysOfTenant.get(part.tenant);
    if (!own) this.keysOfTenant.set(part.tenant, (own = new Map()));
    own.set(hash, part);
    const record: KeyRecord = {
      tenant: part.tenant,
      name: part.name,
      expiresAt: part.expiresAt,
      revoked: part.revoked,
      id: part.id,
    };
    retiredBy.delete(hash);
    keysByHash.set(hash, record);
    keysByName.set(keyNameId(part.tenant, part.name), record);
    if (part.previous !== undefined) {
      // the old secret: one more entry in the same map, the same key until its grace ends
      const { until } = part.previous;
      const expiresAt = part.expiresAt === null ? until : Math.min(part.expiresAt, until);
      keysByHash.set(part.previous.hash, { ...record, expiresAt, retiredAt: until });
      retiredBy.set(part.previous.hash, hash);
    }
    touched.add(part.tenant);
  }

  private rebuildTenant(slug: string, now: number): void {
    const { snapshot } = this.index;
    const old = snapshot.tenants[slug];
    if (old) delete snapshot.tenantSlugById[old.id];
    const part = this.tenantParts.get(slug);
    if (!part) {
      delete snapshot.tenants[slug];
      this.withOverrides.delete(slug);
      this.readLists.delete(slug);
      this.tenantLists.delete(slug);
      return;
    }
    const read = matcherOf(part.tenant.lists, this.readLists.get(slug));
    if (read === undefined) {
      this.readLists.delete(slug);
      this.tenantLists.delete(slug);
    } else {
      this.readLists.set(slug, read);
      this.tenantLists.set(slug, read.matcher);
    }
    let tenant = withBareKeys(part.tenant, this.keysOfTenant.get(slug)?.values() ?? []);
    if (part.overrides.length > 0) {
      this.withOverrides.add(slug);
      tenant = applyTenantOverrides(tenant, overridesAt(part.overrides, now).active);
    } else this.withOverrides.delete(slug);
    snapshot.tenants[slug] = tenant;
    snapshot.tenantSlugById[tenant.id] = slug;
  }

  private nextChangeAt(now: number): number | null {
    let next: number | null = null;
    for (const slug of this.withOverrides) {
      const at = overridesAt(this.tenantParts.get(slug)?.overrides ?? [], now).nextChangeAt;
      if (at !== null && (next === null || at < next)) next = at;
    }
    return next;
  }
}

/** The index of a whole published configuration as it stands at `now` (tests, benches, the holder's database load). */
export function buildIndex(config: PublishedConfig, now: number = Date.now()): ConfigIndex {
  return stateOf(config, now).current;
}

/** A state holding a whole published configuration. */
export function stateOf(config: PublishedConfig, now: number = Date.now()): ConfigState {
  const state = new ConfigState();
  state.apply(splitPublished(config), config.version, now);
  return state;
}

/** Before any version is loaded: nothing is known, every tenant and key is unknown. */
export function emptyIndex(): ConfigIndex {
  return new ConfigState().current;
}
