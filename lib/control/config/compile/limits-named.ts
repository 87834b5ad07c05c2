import "server-only";
import {
  limitSetFor,
  type CompiledLimit,
  type CompiledTenant,
  type LimitSet,
} from "@/lib/control/config/compile";

// What a limit's name stands for in a compiled tenant: the limits resets and overrides act
// on. Over the compiled configuration only, so the data layer and the features both use it.

function setLimits(set: LimitSet): CompiledLimit[] {
  return [...set.unrouted, ...Object.values(set.routed).flat()];
}

/**
 * Every compiled limit of the tenant with this name (one per distinct counter id): the
 * tenant's and every key's, or only those a check with `keyName` meets.
 */
export function limitsNamed(tenant: CompiledTenant, name: string, keyName: string | null): CompiledLimit[] {
  const sets =
    keyName !== null
      ? [limitSetFor(tenant, keyName)]
      : [
          tenant.limits,
          tenant.keyDefault,
          ...Object.values(tenant.keys).flatMap((k) => (k.limits ? [k.limits] : [])),
        ];
  const byId = new Map<string, CompiledLimit>();
  for (const limit of sets.flatMap(setLimits)) if (limit.name === name) byId.set(limit.id, limit);
  return [...byId.values()];
}
