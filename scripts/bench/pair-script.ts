// A wrk script of check + follow-up pairs (kind-costs.ts): each check's answer gives a field
// (a lease, a checkId) that the next request of any connection sends to `follow` (release,
// adjust); with none waiting, a connection sends the next check. wrk runs one Lua state per
// thread (the bench uses one), so one queue serves all its connections. A check answered
// without the field (a denial, a degraded answer) is followed by nothing; a follow-up's
// answer is never read for one.

export interface PairOptions {
  token: string;
  /** the check's JSON body */
  check: string;
  /** the answer's string field the follow-up sends: "lease" or "checkId" */
  field: "lease" | "checkId";
  /** the follow-up's path */
  follow: string;
  /** more JSON members of the follow-up's body, e.g. ',"amount":-1' */
  extra?: string;
}

export function pairScript(options: PairOptions): string {
  const { token, check, field, follow, extra = "" } = options;
  return `wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
wrk.headers["authorization"] = "Bearer ${token}"
-- formatted on first use: wrk sets the Host header only after loading the script
local check = nil
local waiting = {}
local head, tail = 1, 0
request = function()
  if head <= tail then
    local value = waiting[head]
    waiting[head] = nil
    head = head + 1
    return wrk.format(nil, "${follow}", nil, '{"${field}":"' .. value .. '"${extra}}')
  end
  check = check or wrk.format(nil, "/api/check", nil, [==[${check}]==])
  return check
end
response = function(status, headers, body)
  -- decision bodies only ("configVersion"): an adjustment's answer repeats its checkId
  local value = body:find('"configVersion"', 1, true) and body:match('"${field}":"([^"]+)"')
  if value then
    tail = tail + 1
    waiting[tail] = value
  end
end
`;
}
