// Text tools of the CLI that the dashboard shares (its import preview's diff), on a public
// subpath (@sluice/client/text): the server imports the package, never its insides.
export { lineDiff, lines, unifiedDiff, type DiffLine } from "./cli/line-diff";
