--[[ check.lua: every limit of one check, decided and consumed in one atomic step.

Loaded as one script: lua/common.lua, then lua/algorithms/*.lua (each registers ALG[code]),
then this file (lib/limiter/script.ts concatenates them; the SHA is of the whole text).

KEYS[i], i = 1..n   state key of limit i; all of one check share the hash tag {t:<tenant>}
ARGV[1]             cost: units this check consumes, integer >= 1
ARGV[2]             dryRun: 1 = decide and report exactly as the check would be, store nothing
ARGV[3]             now override in ms, test-only virtual clock (-1 = Redis TIME; see
                    lib/limiter/clock.ts for how production code is kept from sending it)
ARGV[4 + 6*(i-1) ..] six integers per limit i:
                    algorithm (1 fixed_window, 2 sliding_log, 3 sliding_window,
                               4 token_bucket, 5 leaky_bucket, 6 gcra),
                    L (limit), W (window ms), B (burst; L where it does not apply),
                    shadow (1 = mode shadow), maxDelay (ms; -1 = action reject)

Reply (integers only): { allowed (0|1: every enforce limit admits), nowMs,
  then six integers per limit i:
    status (0 rate_limited, 1 admits on its own, 2 cost_exceeds_capacity),
    consumed (0|1: this check consumes the limit's units; also reported on dryRun),
    remaining, resetMs, retryAfterMs (-1 = none or never), waitMs }

All-or-nothing: enforce limits consume only when every enforce limit admits; a shadow limit
consumes when it alone admits and never blocks. A denied limit never writes.
]]

local cost = tonumber(ARGV[1])
local dry = ARGV[2] == '1'
local now = tonumber(ARGV[3])
-- Keys outlive their state by SLACK ms under a virtual clock: virtual time is not the clock
-- Redis expires keys by, so a virtual-time TTL could drop state mid-test in real time.
local slack = 0
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  slack = 3600000
end

local n = #KEYS
local results = {}
local allowed = 1
for i = 1, n do
  local a = 4 + 6 * (i - 1)
  local limit = {
    key = KEYS[i], L = tonumber(ARGV[a + 1]), W = tonumber(ARGV[a + 2]),
    B = tonumber(ARGV[a + 3]), shadow = ARGV[a + 4] == '1', maxDelay = tonumber(ARGV[a + 5]),
  }
  local r = ALG[tonumber(ARGV[a])](limit, cost, now)
  r.shadow = limit.shadow
  results[i] = r
  if r.status ~= 1 and not limit.shadow then allowed = 0 end
end

local reply = { allowed, now }
for i = 1, n do
  local r = results[i]
  local consumed = r.status == 1 and (r.shadow or allowed == 1)
  if consumed and not dry then r.write(slack) end
  local remaining, reset = r.remaining0, r.reset0
  if consumed then remaining, reset = r.remaining1, r.reset1 end
  local wait = 0
  if consumed then wait = r.wait end
  local retry = -1
  if r.status == 0 then retry = r.retry end
  reply[#reply + 1] = r.status
  reply[#reply + 1] = consumed and 1 or 0
  reply[#reply + 1] = remaining
  reply[#reply + 1] = reset
  reply[#reply + 1] = retry
  reply[#reply + 1] = wait
end
return reply
