--[[ check-many.lua: several independent checks (on a Cluster, of one tenant), decided in order in one call.

Loaded as one script like check.lua (common.lua, algorithms/*.lua, run-check.lua, then this
file). Each check is all-or-nothing on its own, exactly as check.lua decides it alone; a
later check sees what the earlier ones consumed, as if they had been sent one by one. One
Redis TIME for the whole call: the checks are decided at the same instant. Micro-batching
(lib/limiter/batcher.ts) sends concurrent checks of one tenant this way, which saves the
per-command cost of Redis and of the client per check. Keys and rules shared by several
checks (the tenant's own limit, one rule for many keys) are sent once and referred to by
their index, so a call's size and parsing grow with what differs between its checks.

KEYS                 the distinct state keys of the call: on a Cluster all of one tenant
                     (one hash tag {t:<tenant>}, one slot); on a single Redis any tenants
ARGV[1]              now override in ms, test-only virtual clock (-1 = Redis TIME)
ARGV[2]              r: number of distinct rules
ARGV[3 .. 2+7r]      seven values per rule as in check.lua's ARGV[4 ..]: algorithm, L, W, B,
                     shadow, maxDelay, entry
ARGV[3+7r]           m: number of checks
ARGV[4+7r]           the checks, as ONE string of integers separated by spaces (one
                     argument instead of ~9 per check: a client encodes each argument on its
                     own, which cost more than reading them here); per check j: cost,
                     dryRun (0|1), n_j (its number of limits), then per limit two indexes
                     (1-based): its key in KEYS, its rule among the r rules

Reply: an array of integers, as check.lua's: per check j in order,
check.lua's reply for it: { allowed_j, nowMs, six integers per limit }, concatenated
(2 + 6*n_j integers each).
]]

local now, slack = call_clock(tonumber(ARGV[1]))
local r = tonumber(ARGV[2])
state_prefetch(KEYS)
local rules = {}
for i = 1, r do rules[i] = read_rule(2 + 7 * (i - 1)) end
local a = 3 + 7 * r
local m = tonumber(ARGV[a])
local next_int = gmatch(ARGV[a + 1], '%d+')
local reply = {}
local keys, used = {}, {}
local rb = 0
for _ = 1, m do
  local cost, dry, n = tonumber(next_int()), next_int() == '1', tonumber(next_int())
  for i = 1, n do
    keys[i] = KEYS[tonumber(next_int())]
    used[i] = rules[tonumber(next_int())]
  end
  rb = run_check(n, keys, used, cost, dry, now, slack, reply, rb)
end
flush_states(now, slack)
return reply
