export { checkNames } from "./check-names";
export { childPath, formatPath, type DocumentError, type PathPart } from "./document-error";
export { readDocumentRefs, type DocumentRefs } from "./document-refs";
export {
  documentSchema,
  keySchema,
  planSchema,
  routeSchema,
  tenantSchema,
  TENANT_STATUSES,
  type ConfigDocument,
  type ConfigDocumentInput,
  type KeyDoc,
  type PlanDoc,
  type RouteDoc,
  type TenantDoc,
  type TenantStatus,
} from "./document-schema";
export { MAX_LIMIT, MAX_WINDOW_MS, NAME_PATTERN, NAME_RULE } from "./field-schemas";
export {
  globalRouteSlots,
  planSlots,
  resolveTenantInheritance,
  type InheritanceScope,
  type LimitDeclaration,
  type LimitSlot,
  type TenantInheritance,
} from "./inheritance";
export { describeOrigin, type LimitLevel, type LimitOrigin } from "./limit-origin";
export {
  fullLimitSchema,
  LIMIT_FIELD_NAMES,
  limitSchema,
  type FullLimitDoc,
  type LimitDoc,
  type LimitDocInput,
} from "./limit-schema";
export {
  mergeLimitFields,
  normalizeLimit,
  setFieldNames,
  type LimitFieldName,
  type LimitFields,
} from "./normalize-limit";
export { locateErrors, type SourcePositions } from "./source-positions";
export { checkText, type TextCheck, type TextCheckResult } from "./check-text";
export {
  parseDocumentText,
  parseText,
  type DocumentFormat,
  type ParsedText,
  type ParseTextResult,
} from "./parse-document-text";
export { validateDocument, type ValidationContext, type ValidationResult } from "./validate-document";
export {
  MAX_DOCUMENT_DEPTH,
  MAX_DOCUMENT_VALUES,
  VALUES_PER_LIMIT,
  structureProblem,
} from "./structure-limits";
export { overrideDocSchema, type OverrideDoc } from "./override-schema";
