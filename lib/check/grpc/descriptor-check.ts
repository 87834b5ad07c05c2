// How Envoy's model lands on Sluice's (docs/envoy.md, docs/envoy-migration.md): a domain is a
// tenant, and a request descriptor is one check whose route is a path built from its entries
// and whose subject is the same path. The rules are the client package's (`@sluice/client/envoy`),
// which `sluice import-envoy` writes route patterns by, so what it imports is what this
// server's checks hit.
export {
  descriptorPath,
  descriptorSubject,
  domainSlug,
  DESCRIPTOR_METHOD,
  SUBJECT_MAX,
  type DescriptorEntry,
} from "@sluice/client/envoy";
