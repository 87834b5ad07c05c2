export { compileLimit, formatProvenance, type KeyIdOf } from "./compile-limit";
export { compileSnapshot } from "./compile-snapshot";
export {
  NO_ROUTE,
  effectiveLimits,
  limitSetFor,
  resolveRoute,
  resolveRoutes,
  shownRoute,
  type RouteResolution,
} from "./effective-limits";
export { idMapFromNames, type IdMap } from "./id-map";
export {
  SNAPSHOT_FORMAT,
  type CompiledKey,
  type CompiledLimit,
  type CompiledTenant,
  type LimitSet,
  type ProvenanceStep,
  type Snapshot,
} from "./snapshot-types";
