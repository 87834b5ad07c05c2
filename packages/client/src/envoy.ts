// Migration from envoyproxy/ratelimit, on a public subpath (@sluice/client/envoy): the CLI's
// import-envoy and the admin API's ?format=envoy use the converter, and the gRPC server builds
// its checks with the same mapping (docs/envoy-migration.md).
export {
  convertEnvoyConfig,
  type ConvertedDocument,
  type ConvertedRoute,
  type EnvoyConversion,
  type EnvoyConvertOptions,
  type ReportLine,
} from "./envoy/convert";
export type { EnvoyLimit } from "./envoy/rate-limit";
export {
  descriptorCheck,
  descriptorPath,
  descriptorSubject,
  domainSlug,
  pathSegment,
  DESCRIPTOR_METHOD,
  SUBJECT_MAX,
  UNIT_WINDOWS,
  type DescriptorEntry,
} from "./envoy/mapping";
