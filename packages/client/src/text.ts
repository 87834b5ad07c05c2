// Text tools of the CLI that the server shares (the import preview's diff, the export's YAML),
// on a public subpath (@sluice/client/text): the server imports the package, never its insides.
export { lineDiff, lines, unifiedDiff, type DiffLine } from "./cli/line-diff";
export { documentYaml } from "./cli/document-yaml";
