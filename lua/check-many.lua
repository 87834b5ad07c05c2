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
ARGV[4+7r]           the checks, as ONE string of integers (one argument instead of ~9 per
                     check: a client encodes each argument on its own, which cost more than
                     reading them here); per check j: cost, flags (1: dryRun, 2: a lease id
                     follows, as the next integer: lua/algorithms/concurrency.lua), n_j (its number of
                     limits), then per limit two indexes (1-based): its key in KEYS, its rule
                     among the r rules. Each integer in base 32, most significant digit first:
                     a digit d as the byte 80 + d ('P'..'o') when more follow, 48 + d
                     ('0'..'O') when it is the last (read from the bytes in one pass, where
                     gmatch and tonumber on decimal text cost twice as much)

Reply: an array of integers, as check.lua's: per check j in order,
check.lua's reply for it: { allowed_j, nowMs, six integers per limit }, concatenated
(2 + 6*n_j integers each).
]]

local now, slack = call_clock(tonumber(ARGV[1]))
local r = tonumber(ARGV[2])
state_prefetch(KEYS)
local rules = {}
for i = 1, r do rules[i] = read_rule(2 + RULE_ARGS * (i - 1)) end
local a = 3 + RULE_ARGS * r
local m = tonumber(ARGV[a])
local text = ARGV[a + 1]
local len, pos, buf, bi, bn = #text, 1, nil, 1, 0
local function next_int()
  local v = 0
  while true do
    if bi > bn then
      -- the bytes in windows: string.byte returns them on Lua's stack (at most ~8000)
      local last = pos + 3999
      if last > len then last = len end
      if last < pos then error('check-many: the checks string ends early') end
      buf = { byte(text, pos, last) }
      bi, bn, pos = 1, last - pos + 1, last + 1
    end
    local b = buf[bi]
    bi = bi + 1
    if b >= 80 then v = v * 32 + (b - 80) else return v * 32 + (b - 48) end
  end
end
local reply = {}
local keys, used = {}, {}
local rb = 0
for _ = 1, m do
  local cost, flags = next_int(), next_int()
  local lease = nil
  if flags >= 2 then lease = int(next_int()) end
  local dry, n = flags % 2 == 1, next_int()
  for i = 1, n do
    keys[i] = KEYS[next_int()]
    used[i] = rules[next_int()]
  end
  rb = run_check(n, keys, used, cost, dry, now, slack, reply, rb, lease)
end
flush_states(now, slack)
return reply
