// The realistic mix as a wrk script: wrk draws every check itself, so no two
// runs replay one list and caches never see a cycle. Keys, subjects and route ids by Zipf
// (s = 1, rank 1 the most frequent), route patterns uniformly:
// {"apiKey":"sk_...","route":"GET /v1/res17/42","subject":"u1234"}.
import { ROUTE_IDS, ROUTE_PATTERNS, SUBJECTS } from "./realistic-config";

/** A wrk script sending the mix to `path`; `apiKeys` by Zipf rank. */
export function mixScript(path: string, apiKeys: readonly string[], token?: string): string {
  const auth = token ? `wrk.headers["authorization"] = "Bearer ${token}"\n` : "";
  const keys = apiKeys.map((key) => `[==[${key}]==]`).join(",\n");
  return `wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
${auth}local keys = { ${keys} }
local function cdf(n)
  local c, sum = {}, 0
  for i = 1, n do sum = sum + 1 / i; c[i] = sum end
  for i = 1, n do c[i] = c[i] / sum end
  return c
end
local function zipf(c)
  local u, lo, hi = math.random(), 1, #c
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if c[mid] < u then lo = mid + 1 else hi = mid end
  end
  return lo
end
local keyCdf, subjectCdf, idCdf = cdf(#keys), cdf(${SUBJECTS}), cdf(${ROUTE_IDS})
math.randomseed(os.time())
request = function()
  local body = '{"apiKey":"' .. keys[zipf(keyCdf)] .. '","route":"GET /v1/res' ..
    math.random(0, ${ROUTE_PATTERNS - 1}) .. '/' .. zipf(idCdf) .. '","subject":"u' .. zipf(subjectCdf) .. '"}'
  return wrk.format(nil, "${path}", nil, body)
end
`;
}

/**
 * (mi): ONE check of the mix, repeated: its most frequent key and subject (rank 1) on
 * `GET /v1/res3/1`, whose pattern has no route limit, so the four limits every check of
 * the mix has (the mix averages 4.4). The same work per check as (m) but for what varied
 * traffic adds: new subjects and routes to resolve, and distinct counters in Redis.
 */
export function oneMixCheckScript(path: string, apiKey: string, token?: string): string {
  const auth = token ? `wrk.headers["authorization"] = "Bearer ${token}"\n` : "";
  return `wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
${auth}local body = '{"apiKey":"${apiKey}","route":"GET /v1/res3/1","subject":"u1"}'
request = function()
  return wrk.format(nil, "${path}", nil, body)
end
`;
}
