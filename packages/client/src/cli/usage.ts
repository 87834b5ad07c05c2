// `sluice --help`: every command in one screen (docs/cli.md has the examples).
export const USAGE = `sluice: Sluice's configuration as code, keys and counters from the shell

Usage:
  sluice config export [--json]            print the configuration (YAML) to stdout
  sluice config diff FILE [--prune]        what applying FILE would change (the server's dry run)
  sluice config apply FILE [--prune]       apply FILE, all or nothing; prints the new config version
  sluice import-envoy FILE --plan NAME [--tenant SLUG] [--out FILE] [--apply | --dry-run]
                                           envoyproxy/ratelimit's YAML as a Sluice document
                                           (stdout), what it cannot carry over on stderr;
                                           --apply / --dry-run: import it through the server
  sluice check --api-key KEY | --tenant SLUG [--key NAME]
               [--route "GET /path"] [--subject ID] [--cost N] [--dry-run]
  sluice state --tenant SLUG [--key NAME] [--route "GET /path"] [--subject ID]
  sluice reset --tenant SLUG --limit NAME [--key NAME] [--route "GET /path"] [--subject ID]
  sluice keys list TENANT
  sluice keys create TENANT NAME           prints the new key's secret (shown only once)
  sluice keys create-many TENANT --names a,b,c | --file FILE [--expires ISO] [--out FILE]
                                           up to 1,000 keys, all or none; "name<TAB>secret"
                                           lines (shown only once), or into a new file (mode 600)
  sluice keys revoke TENANT NAME
  sluice overrides list [TENANT]           temporary overrides in force and waiting
  sluice overrides create --tenant SLUG --limit NAME --value N|disabled --ends ISO
               --reason TEXT [--starts ISO] [--key NAME | --subject ID]
  sluice overrides end ID                  end it now (one not yet started is cancelled)
  sluice alerts endpoints [list] --tenant SLUG
  sluice alerts endpoints add NAME URL --tenant SLUG [--format json|slack] [--allow-private]
                                           prints the signing secret (shown only once)
  sluice alerts endpoints disable NAME --tenant SLUG
  sluice alerts rules [list] --tenant SLUG
  sluice alerts rules add NAME --tenant SLUG --kind utilization|rejection_rate|degraded
               --endpoint NAME [--limit NAME] [--key NAME] [--route "GET /path"]
               [--above PCT] [--for SECONDS]
  sluice alerts rules disable ID --tenant SLUG
  sluice alerts deliveries --tenant SLUG [--limit N]   the webhook delivery log, newest first

FILE may be "-" for stdin (--file: a JSON list of names or { "name", "expiresAt"? }). --prune also deletes tenants FILE does not list.
Every command: --url URL (or SLUICE_URL), --token TOKEN (or SLUICE_TOKEN),
  --timeout MS (default 30000), --json (machine-readable output).

Exit codes: 0 success / no change / allowed; 1 diff found changes / check denied;
  2 invalid file or arguments, or any failure (with a sentence on stderr).
`;
