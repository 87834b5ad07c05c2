--[[ check-many.lua: several independent checks of one tenant, decided in order in one call.

Loaded as one script like check.lua (common.lua, algorithms/*.lua, run-check.lua, then this
file). Each check is all-or-nothing on its own, exactly as check.lua decides it alone; a
later check sees what the earlier ones consumed, as if they had been sent one by one. One
Redis TIME for the whole call: the checks are decided at the same instant. Micro-batching
(lib/limiter/batcher.ts) sends concurrent checks of one tenant this way, which saves the
per-command cost of Redis and of the client per check.

KEYS                 the checks' keys one after another: n_1 keys of check 1, then check 2...
                     all of one tenant (one hash tag {t:<tenant>}, one Cluster slot); the
                     caller may pad KEYS with more keys of that slot, which are ignored
ARGV[1]              now override in ms, test-only virtual clock (-1 = Redis TIME)
ARGV[2]              m: number of checks
then per check j:    cost, dryRun (0|1), n_j (its number of limits), then six integers per
                     limit as in check.lua's ARGV[4 ..]

Reply (integers only): per check j in order, check.lua's reply for it: { allowed_j, nowMs,
  six integers per limit }, concatenated (2 + 6*n_j integers each).
]]

local now, slack = call_clock(tonumber(ARGV[1]))
local m = tonumber(ARGV[2])
local reply = {}
local kb, ab, rb = 0, 2, 0
for _ = 1, m do
  local cost, dry, n = tonumber(ARGV[ab + 1]), ARGV[ab + 2] == '1', tonumber(ARGV[ab + 3])
  run_check(kb, ab + 3, n, cost, dry, now, slack, reply, rb)
  kb = kb + n
  ab = ab + 3 + 6 * n
  rb = rb + 2 + 6 * n
end
return reply
