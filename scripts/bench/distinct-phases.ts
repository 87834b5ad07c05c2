// Varied traffic beside the identical check (b) in the same rounds (does a check cost more
// when its subject or route id is new?): (b)'s keys, limits and connections, with the subject
// drawn from 100,000 (no limit counts per subject), and then also the route drawn from 1,000
// ids of one pattern (the same three limits). Both were 0.48x (b) before the shapes and the
// whole-check cache (docs/architecture.md); wrk draws every body itself.
import type { Measured, Phase, PhaseSummary } from "./rounds";
import type { Row, Target } from "./report";
import { phaseRow } from "./rows";

export const SUBJECTS = 100_000;
export const ROUTE_IDS = 1_000;

type AppPhase = (name: string, path: string, bodies: string[], script?: string) => Promise<Measured>;

/** A wrk script: (b)'s keys in turn, a uniform subject, and `route` (with `$id` a uniform id). */
export function distinctScript(apiKeys: readonly string[], route: string, token: string): string {
  const keys = apiKeys.map((key) => `[==[${key}]==]`).join(",\n");
  const [head, tail] = route.split("$id");
  const routeExpr =
    tail === undefined ? `"${head}"` : `"${head}" .. math.random(1, ${ROUTE_IDS}) .. "${tail}"`;
  return `wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
wrk.headers["authorization"] = "Bearer ${token}"
local keys = { ${keys} }
local i = 0
math.randomseed(os.time())
request = function()
  i = i % #keys + 1
  local body = '{"apiKey":"' .. keys[i] .. '","route":"' .. ${routeExpr} .. '","subject":"u' .. math.random(1, ${SUBJECTS}) .. '"}'
  return wrk.format(nil, "/api/check", nil, body)
end
`;
}

export function distinctPhases(
  appPhase: AppPhase,
  apiKeys: readonly string[],
  route: string,
  itemsRoute: string,
  token: string,
  suffix = "",
): Phase[] {
  return [
    {
      id: `s1${suffix}`,
      run: () => appPhase("(s1) 100k subjects", "/api/check", [], distinctScript(apiKeys, route, token)),
    },
    {
      id: `s2${suffix}`,
      run: () =>
        appPhase(
          "(s2) 1k route ids x 100k subjects",
          "/api/check",
          [],
          distinctScript(apiKeys, itemsRoute, token),
        ),
    },
  ];
}

export function distinctRows(get: (id: string) => PhaseSummary): Row[] {
  return [
    phaseRow(
      get("s1"),
      "(s1)",
      `POST /api/check, (b) with ${SUBJECTS.toLocaleString("en-US")} distinct subjects`,
    ),
    phaseRow(
      get("s2"),
      "(s2)",
      `(s1) with ${ROUTE_IDS.toLocaleString("en-US")} route ids (GET /v1/items/:id)`,
    ),
  ];
}

export function distinctTargets(get: (id: string) => PhaseSummary): Target[] {
  const identical = get("b").median.rps;
  return (["s1", "s2"] as const).map((id) => {
    const rps = get(id).median.rps;
    return {
      what: `(${id}) >= 0.8x (b)`,
      value: `${(rps / identical).toFixed(2)}x`,
      ok: rps >= 0.8 * identical,
    };
  });
}
