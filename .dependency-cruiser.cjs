// The folder boundaries of lib/ (README "Architecture"), checked by `npm run lint`
// (npm run lint:deps alone). Type-only imports count like the others: a type pulled from a
// higher plane couples the planes as surely as a value does.
//   shared  <- check <- usage (record <- store, read) <- control <- server
// usage's storage and reads reach PostgreSQL through the data layer (lib/control/data), the
// one part of the control plane they may import.
const PRISMA = "^(lib/generated/|node_modules/(@prisma|pg|pg-[a-z-]+)/)";
const STORES = "^(lib/shared/redis/|node_modules/ioredis/)";
// The control plane's pure domain folders: below lib/control/data, which calls them, and
// above nothing of it (scripts/house/move-domain-out-of-data.mjs moved them out of it).
const DOMAIN =
  "^lib/control/(errors/|lists/|overrides/|bulk/|keys/|audit/|auth/policy/|alerts/(guard|input)/)";

module.exports = {
  forbidden: [
    {
      name: "no-folder-cycles",
      comment: "Folders form no cycle: move the shared piece down, or invert with a callback.",
      severity: "error",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-module-cycles",
      comment: "Modules form no cycle either: move the shared type or constant down a file.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "data-below-control-features",
      comment:
        "lib/control/data is the bottom of the control plane: features (counters, ops, limit-tree, api...) import it, never the reverse. Below it, and all it may import of the control plane: the config document, compiler and import rules, the control plane's errors and the pure domain folders (DOMAIN).",
      severity: "error",
      from: { path: "^lib/control/data/" },
      to: { path: "^lib/control/", pathNot: ["^lib/control/(data|config)/", DOMAIN] },
    },
    {
      name: "domain-below-data",
      comment:
        "The domain logic the data layer calls (input schemas, rights, an import's rules) is pure: no data layer, no feature above it, no Prisma, no Redis. What reads or writes goes to lib/control/data.",
      severity: "error",
      from: { path: ["^lib/control/config/(import|document|compile)/", DOMAIN] },
      to: {
        path: ["^lib/control/", PRISMA, STORES],
        pathNot: ["^lib/control/config/(import|document|compile)/", DOMAIN],
      },
    },
    {
      name: "shared-is-the-kernel",
      comment: "lib/shared is what every plane may use; it imports no plane.",
      severity: "error",
      from: { path: "^lib/shared/" },
      to: { path: "^lib/(check|usage|control|server)/" },
    },
    {
      name: "check-stays-lean",
      comment: "The check path imports no usage, control plane, process wiring or Prisma.",
      severity: "error",
      from: { path: "^lib/check/" },
      to: { path: ["^lib/(usage|control|server)/", PRISMA] },
    },
    {
      name: "usage-recording-stays-lean",
      comment: "What the front records with: no storage, reads, control plane or Prisma.",
      severity: "error",
      from: { path: "^lib/usage/(record/|[^/]+$)" },
      to: { path: ["^lib/(control|server)/", "^lib/usage/(store|read)/", PRISMA] },
    },
    {
      name: "usage-reaches-only-data",
      comment: "Usage storage and reads use the data layer, no other part of the control plane.",
      severity: "error",
      from: { path: "^lib/usage/" },
      to: { path: ["^lib/control/", "^lib/server/"], pathNot: "^lib/control/data/" },
    },
    {
      name: "control-below-server",
      comment: "lib/server wires the processes; nothing in the planes imports it.",
      severity: "error",
      from: { path: "^lib/(shared|check|usage|control)/" },
      to: { path: "^lib/server/" },
    },
    {
      name: "prisma-in-data-only",
      comment: "Only the data access layer touches Prisma (tenant isolation is audited there).",
      severity: "error",
      from: {
        path: "^(lib|app|components)/|^(server|server-app|proxy)\\.ts$",
        pathNot: "^lib/(control/data|generated)/",
      },
      to: { path: PRISMA },
    },
    {
      name: "front-loads-no-control",
      comment: "The check front (lib/server/front.ts) reaches no control plane module and no Prisma.",
      severity: "error",
      from: { path: "^lib/server/front\\.ts$" },
      to: { reachable: true, path: ["^lib/control/", "^lib/usage/(store|read)/", PRISMA] },
    },
    {
      name: "lib-below-app",
      comment: "Server code does not import pages, actions or components.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "components-below-app",
      comment: "Components receive actions as props; they never import app/.",
      severity: "error",
      from: { path: "^components/" },
      to: { path: "^app/" },
    },
    {
      name: "client-self-contained",
      comment: "packages/client is published alone: it imports nothing of the server.",
      severity: "error",
      from: { path: "^packages/client/" },
      to: { path: "^(lib|app|components|server|proxy)" },
    },
    {
      name: "client-through-its-entries",
      comment:
        "Outside the package (tests aside), use @sluice/client, @sluice/client/text or @sluice/client/envoy.",
      severity: "error",
      from: { path: "^(lib|app|components)/|^(server|server-app|proxy)\\.ts$" },
      to: { path: "^packages/client/src/", pathNot: "^packages/client/src/(index|text|envoy)\\.ts$" },
    },
  ],
  options: {
    doNotFollow: { path: "^(node_modules|lib/generated)/" },
    exclude: { path: "^(\\.next|packages/client/dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
