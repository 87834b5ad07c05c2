--[[ run-check.lua: one check's limits decided and consumed (no KEYS or ARGV of its own).

run_check(n, keys, rules, cost, dry, now, slack, reply, rb) decides the check whose n limits
have their state keys at keys[1..n] and their rules at rules[1..n] (each rule a table
{ alg, L, W, B, shadow (boolean), maxDelay } of numbers, as read_rule makes from the six
ARGV integers of check.lua), writes when admitted, and stores its reply as text parts at
reply[rb+1 ..]: "allowed nowMs", then one part of six integers per limit (check.lua's
reply); it returns the new number of parts. Integers are written by string.format's %d:
glibc's integer path, where Lua's own number-to-text (%.14g) takes its slow float path. Shared by check.lua (one
check) and check-many.lua (several checks in order, one call), so both decide exactly
alike. A later check of one call reads what an earlier one wrote (string states through
state_set, written out by flush_states when the call ends).
]]

-- six ARGV strings from ARGV[a+1]: algorithm, L, W, B, shadow, maxDelay
local function read_rule(a)
  return { alg = ALG[tonumber(ARGV[a + 1])], L = tonumber(ARGV[a + 2]), W = tonumber(ARGV[a + 3]),
           B = tonumber(ARGV[a + 4]), shadow = ARGV[a + 5] == '1', maxDelay = tonumber(ARGV[a + 6]) }
end

local results = {}

local function run_check(n, keys, rules, cost, dry, now, slack, reply, rb)
  local allowed = 1
  for i = 1, n do
    local rule = rules[i]
    local r = rule.alg(keys[i], rule.L, rule.W, rule.B, rule.maxDelay, cost, now)
    results[i] = r
    if r.status ~= 1 and not rule.shadow then allowed = 0 end
  end

  rb = rb + 1
  reply[rb] = format('%d %d', allowed, now)
  for i = 1, n do
    local r = results[i]
    local consumed = r.status == 1 and (rules[i].shadow or allowed == 1)
    if consumed and not dry then
      local key, ttl = keys[i], int(r.ttl + slack)
      if r.member then
        redis.call('ZREMRANGEBYSCORE', key, '-inf', r.trim)
        redis.call('ZADD', key, r.value, r.member)
        redis.call('PEXPIRE', key, ttl)
      else
        state_set(key, r.value, ttl)
      end
    end
    local retry = -1
    if r.status == 0 then retry = r.retry end
    rb = rb + 1
    if consumed then
      reply[rb] = format('%d 1 %d %d %d %d', r.status, r.remaining1, r.reset1, retry, r.wait)
    else
      reply[rb] = format('%d 0 %d %d %d 0', r.status, r.remaining0, r.reset0, retry)
    end
  end
  return rb
end

-- The clock of one call: Redis TIME once, or the test-only override (ms >= 0). Keys outlive
-- their state by the returned slack under a virtual clock: virtual time is not the clock
-- Redis expires keys by, so a virtual-time TTL could drop state mid-test in real time.
local function call_clock(override)
  if override < 0 then
    local t = redis.call('TIME')
    return tonumber(t[1]) * 1000 + floor(tonumber(t[2]) / 1000), 0
  end
  return override, 3600000
end
