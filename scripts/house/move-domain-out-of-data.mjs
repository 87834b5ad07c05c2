// Takes the domain logic out of the data layer (docs/architecture.md): lib/control/data keeps
// the reads and writes (Prisma, its transactions, the counter store in Redis); input schemas,
// rights and import rules that are pure functions over plain data go to the control plane's
// feature folders, below the data layer, which calls them (.dependency-cruiser.cjs,
// "domain-below-data"; tests/unit/house/data-layer-files.test.ts).
//
// Re-runnable, like move-by-plane.mjs (run that first on a branch older than it): files still
// at an old path are moved (git mv), then every import, path string and comment that names an
// old path is rewritten, in lib/, app/, components/, server*.ts, proxy.ts, tests/, scripts/,
// packages/ and the docs. Files split in two kept their old path for the data half (the
// pure half is new), so imports of the data half need nothing; what a branch imports of a
// pure half from the old path fails typecheck and names the new file:
//   count-caps.ts       -> the caps stay in config/import/count-caps.ts; assertKeyCap in data/key-cap.ts
//   auth/token-authority.ts -> auth/policy/token-authority.ts; MAKER_SELECT, makerOf in data/auth/token-makers.ts
//   override-import-rules.ts: the clash and cap rule in overrides/override-clashes.ts
//   api-keys.ts, create-keys.ts: CreateKeyInput, NewKeyInput, MAX_KEYS_PER_REQUEST,
//     refineDistinctNames in keys/key-inputs.ts
//   change-locks.ts: ChangeScope, scopedSlugs in config/import/change-scope.ts
//   import-checks.ts: checkImposedOverrides in config/import/imposed-overrides.ts
//   limit-rows.ts: the mapping in config/import/limit-columns.ts (limit-rows.ts types it by Prisma)
//   node scripts/house/move-domain-out-of-data.mjs [--dry]
import { pathMapper, runMoves } from "./move-engine.mjs";

/** Exact files first (they win over folders), then folders ("/" at the end), longest first. */
const FILES = {
  // the errors the control plane throws and its callers map to answers: below every part of it
  "lib/control/data/errors.ts": "lib/control/errors/errors.ts",
  // an import's rules over plain documents and principals
  "lib/control/data/import-access.ts": "lib/control/config/import/import-access.ts",
  "lib/control/data/import-scope.ts": "lib/control/config/import/import-scope.ts",
  "lib/control/data/tenant-field-rights.ts": "lib/control/config/import/tenant-field-rights.ts",
  "lib/control/data/count-caps.ts": "lib/control/config/import/count-caps.ts",
  // one spelling of a document, over the limits' stored form (config/import/limit-columns.ts)
  "lib/control/data/canonical.ts": "lib/control/config/import/canonical.ts",
  "lib/control/data/bulk/limit-targets.ts": "lib/control/bulk/limit-targets.ts",
  // request bodies (zod) and the rules over them
  "lib/control/data/override-input.ts": "lib/control/overrides/override-input.ts",
  "lib/control/data/alerts/inputs.ts": "lib/control/alerts/input/inputs.ts",
  "lib/control/data/queries/audit-filter.ts": "lib/control/audit/audit-filter.ts",
  "lib/control/data/bulk/bulk-inputs.ts": "lib/control/bulk/bulk-inputs.ts",
  "lib/control/data/auth/passwords.ts": "lib/control/auth/policy/passwords.ts",
  "lib/control/data/auth/token-authority.ts": "lib/control/auth/policy/token-authority.ts",
};
const FOLDERS = {};

/** The new path of an old one (unchanged when no rule names it). */
export const mapPath = pathMapper(FILES, FOLDERS);

runMoves(mapPath, { dry: process.argv.includes("--dry") });
