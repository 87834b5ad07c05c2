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
local shadow = {}
local allowed = 1
for i = 1, n do
  local a = 4 + 6 * (i - 1)
  local r = ALG[tonumber(ARGV[a])](KEYS[i], tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]),
    tonumber(ARGV[a + 3]), tonumber(ARGV[a + 5]), cost, now)
  results[i] = r
  shadow[i] = ARGV[a + 4] == '1'
  if r.status ~= 1 and not shadow[i] then allowed = 0 end
end

local reply = { allowed, now }
for i = 1, n do
  local r = results[i]
  local consumed = r.status == 1 and (shadow[i] or allowed == 1)
  if consumed and not dry then
    local key, ttl = KEYS[i], int(r.ttl + slack)
    if r.member then
      redis.call('ZREMRANGEBYSCORE', key, '-inf', r.trim)
      redis.call('ZADD', key, r.value, r.member)
      redis.call('PEXPIRE', key, ttl)
    else
      redis.call('SET', key, r.value, 'PX', ttl)
    end
  end
  local k = 6 * i - 3
  reply[k] = r.status
  reply[k + 1] = 0
  reply[k + 2] = r.remaining0
  reply[k + 3] = r.reset0
  reply[k + 4] = -1
  reply[k + 5] = 0
  if consumed then
    reply[k + 1], reply[k + 2], reply[k + 3], reply[k + 5] = 1, r.remaining1, r.reset1, r.wait
  end
  if r.status == 0 then reply[k + 4] = r.retry end
end
return reply
