export { parseCheckRoute, type CheckRoute } from "./check-route";
export { createRouteMatcher, type RouteMatcher, type RouteScope } from "./route-matcher";
export {
  HTTP_METHODS,
  parseRoutePattern,
  patternShapeKey,
  type HttpMethod,
  type PatternMethod,
  type PatternParseResult,
  type PatternSegment,
  type RoutePattern,
} from "./route-pattern";
