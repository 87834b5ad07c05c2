export { compileLimit, formatProvenance, type KeyIdOf } from "./compile-limit";
export { compileSnapshot } from "./compile-snapshot";
export {
  applyOverrides,
  applyTenantOverrides,
  overriddenLimit,
  overridesAt,
  type OverridesAt,
} from "../../../check/published/apply-overrides";
export {
  NO_ROUTE,
  effectiveLimits,
  effectiveLimitsOf,
  limitSetFor,
  resolveRoute,
  resolveRoutes,
  shownRoute,
  type RouteResolution,
} from "../../../check/published/effective-limits";
export { idMapFromNames, type IdMap } from "./id-map";
export {
  SNAPSHOT_FORMAT,
  type CompiledKey,
  type CompiledLimit,
  type AppliedOverride,
  type CompiledTenant,
  type LimitSet,
  type ProvenanceStep,
  type Snapshot,
} from "../../../check/published/snapshot-types";
