--[[ run-check.lua: one check's limits decided and consumed (no KEYS or ARGV of its own).

run_check(n, keys, rules, cost, dry, now, slack, reply, rb) decides the check whose n limits
have their state keys at keys[1..n] and their rules at rules[1..n] (each rule an array
{ alg, L, W, B, shadow (boolean), maxDelay, entry, log (sliding log) }, as read_rule makes
from the seven ARGV values of check.lua; an array because Lua reads a slot faster than a
hashed name, eight times a limit), writes when admitted, and puts its reply integers at
reply[rb+1 ..]: allowed, nowMs, then six per limit (check.lua's reply); it returns the new
length. Redis sends a Lua table of numbers as an array of integers. Shared by check.lua
(one check) and check-many.lua (several checks in order, one call), so both decide exactly
alike. A later check of one call reads what an earlier one wrote (string states through
state_set, written out by flush_states when the call ends).
]]

-- seven ARGV strings from ARGV[a+1]: algorithm, L, W, B, shadow, maxDelay, entry
local function read_rule(a)
  return { ALG[tonumber(ARGV[a + 1])], tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3]),
           tonumber(ARGV[a + 4]), ARGV[a + 5] == '1', tonumber(ARGV[a + 6]),
           ARGV[a + 7], ARGV[a + 1] == '2' }
end

-- Per limit of the check being decided: what its algorithm returned (see common.lua), in
-- arrays reused by every check of the call instead of a table per limit.
local st, wt, rt, r0, s0, r1, s1, tt, v1, v2, v3 = {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}

local function run_check(n, keys, rules, cost, dry, now, slack, reply, rb)
  local allowed = 1
  for i = 1, n do
    local rule, key = rules[i], keys[i]
    local x1, x2, x3
    if not rule[8] then x1, x2, x3 = state_get(key, rule[7]) end
    st[i], wt[i], rt[i], r0[i], s0[i], r1[i], s1[i], tt[i], v1[i], v2[i], v3[i] =
      rule[1](key, x1, x2, x3, rule[2], rule[3], rule[4], rule[6], cost, now)
    if st[i] ~= 1 and not rule[5] then allowed = 0 end
  end

  reply[rb + 1], reply[rb + 2] = allowed, now
  rb = rb + 2
  for i = 1, n do
    local status, rule = st[i], rules[i]
    -- A shadow limit consumes on its own verdict, except a sliding log: a check that is
    -- denied adds no entry to any log, so a shadow log cannot grow on rejected traffic.
    local consumed = status == 1 and (allowed == 1 or (rule[5] and not rule[8]))
    if consumed and not dry then
      local key = keys[i]
      if rule[8] then
        redis.call('ZREMRANGEBYSCORE', key, '-inf', v3[i])
        redis.call('ZADD', key, v1[i], v2[i])
        redis.call('PEXPIRE', key, int(tt[i] + slack))
      else
        state_set(key, rule[7], v1[i], v2[i], v3[i], tt[i], now)
      end
    end
    if consumed then
      reply[rb + 1], reply[rb + 2], reply[rb + 3], reply[rb + 4], reply[rb + 5], reply[rb + 6] =
        status, 1, r1[i], s1[i], rt[i], wt[i]
    else
      reply[rb + 1], reply[rb + 2], reply[rb + 3], reply[rb + 4], reply[rb + 5], reply[rb + 6] =
        status, 0, r0[i], s0[i], rt[i], 0
    end
    rb = rb + 6
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
