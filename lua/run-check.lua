--[[ run-check.lua: one check's limits decided and consumed (no KEYS or ARGV of its own).

run_check(n, keys, rules, cost, dry, now, slack, reply, rb, lease) decides the check whose n limits
have their state keys at keys[1..n] and their rules at rules[1..n] (each rule an array in
the layout below, as read_rule makes it from check.lua's seven ARGV values per limit),
writes when admitted, and puts its reply integers at
reply[rb+1 ..]: allowed, nowMs, then six per limit (check.lua's reply); it returns the new
length. Redis sends a Lua table of numbers as an array of integers. Shared by check.lua
(one check) and check-many.lua (several checks in order, one call), so both decide exactly
alike. A later check of one call reads what an earlier one wrote (string states through
state_set, written out by flush_states when the call ends).
]]

--[[ A rule: an array, not a table of names, because Lua reads a slot faster than a hashed
name (eight times a limit). Its slots, the first seven in the order of the ARGV values
(lib/check/limiter/rule-layout.ts builds them in that order):
  slot         ARGV   value
  R_ALG        1      the algorithm's function, ALG[code] (code: check.lua's header)
  R_LIMIT      2      L
  R_WINDOW     3      W, ms
  R_BURST      4      B
  R_SHADOW     5      mode shadow: true when the ARGV value is '1'
  R_MAX_DELAY  6      maxDelay, ms (-1: action reject)
  R_ENTRY      7      the limit's entry among its owner's (common.lua)
  R_LOG        -      the algorithm keeps a sorted set at the key: the sliding log, or the
                      concurrency limit's leases (lua/algorithms/concurrency.lua)
`lease`: the check's lease id (text), taken in every concurrency limit it admits; nil when
the check has none.
  R_PEN        (7)    the limit's penalty, or false: an ENTRY value longer than 8 characters
                      carries it as "<entry>:<blockMs>:<grow x 100>:<maxMs>:<windowMs>"
                      (lib/check/limiter/penalty-args.ts), so rules without one send and
                      read exactly what they did before
]]
local R_ALG, R_LIMIT, R_WINDOW, R_BURST, R_SHADOW, R_MAX_DELAY, R_ENTRY, R_LOG, R_PEN = 1, 2, 3, 4, 5, 6, 7, 8, 9
-- a penalty's slots: its block's entry in the owner key ('!' and the limit entry's last 7
-- characters: '!' is no base64url character, so it never names a counter), then its numbers
local P_ID, P_BLOCK, P_GROW, P_MAX, P_WINDOW = 1, 2, 3, 4, 5

local function read_penalty(text)
  local id, block, grow, most, window = match(text, '^(........):(%d+):(%d+):(%d+):(%d+)$')
  if not id then error('check: bad penalty ' .. text) end
  return id, { '!' .. string.sub(id, 2), tonumber(block), tonumber(grow), tonumber(most), tonumber(window) }
end
-- ARGV values per rule, and the sliding log's algorithm code as sent
local RULE_ARGS, SLIDING_LOG_CODE, CONCURRENCY_CODE = 7, '2', '7'
local SET_CODES = { [SLIDING_LOG_CODE] = true, [CONCURRENCY_CODE] = true }

-- a rule from its RULE_ARGS ARGV strings, ARGV[a+1 ..]; the constructor lists the slots in
-- order R_ALG .. R_LOG (positional: Lua then makes the array in one step)
local function read_rule(a)
  local code = ARGV[a + R_ALG]
  local entry, pen = ARGV[a + R_ENTRY], false
  if #entry > 8 then entry, pen = read_penalty(entry) end
  return { ALG[tonumber(code)], tonumber(ARGV[a + R_LIMIT]), tonumber(ARGV[a + R_WINDOW]),
           tonumber(ARGV[a + R_BURST]), ARGV[a + R_SHADOW] == '1', tonumber(ARGV[a + R_MAX_DELAY]),
           entry, SET_CODES[code] == true, pen }
end


-- Per limit of the check being decided: what its algorithm returned (see common.lua), in
-- arrays reused by every check of the call instead of a table per limit.
local st, wt, rt, r0, s0, r1, s1, tt, v1, v2, v3 = {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}
-- per limit: the penalty block it starts (its length), or false
local pb = {}

--[[ A penalty (docs/algorithms.md, Penalties), after limit i's algorithm decided: its block
is an entry of the limit's owner key with three integers: the block's end, its length and
when it was set. While the block runs, the limit denies with status 3 (penalty) and the
block's end as its retry time (unless the check could never pass: status 2 stays). A
denial of its own (status 0) starts a block, reported the same way: blockMs, or when the
previous block was set less than windowMs ago, that block's length times grow, at most
maxMs. Returns the new block's length to record (the caller writes it unless dry), or false. ]]
local function penalize(pen, key, i, now)
  local ends, length, set = state_get(key, pen[P_ID])
  if ends ~= nil and ends > now then
    if st[i] ~= 2 then st[i], rt[i], r0[i] = 3, ends - now, 0 end
    return false
  end
  if st[i] ~= 0 then return false end
  local d = pen[P_BLOCK]
  if set ~= nil and now - set < pen[P_WINDOW] then
    d = idiv(length * pen[P_GROW], 100)
    if d > pen[P_MAX] then d = pen[P_MAX] end
  end
  st[i], rt[i], r0[i] = 3, d, 0
  return d
end

local function run_check(n, keys, rules, cost, dry, now, slack, reply, rb, lease)
  local allowed = 1
  LEASE = lease
  for i = 1, n do
    local rule, key = rules[i], keys[i]
    local x1, x2, x3
    if not rule[R_LOG] then x1, x2, x3 = state_get(key, rule[R_ENTRY]) end
    st[i], wt[i], rt[i], r0[i], s0[i], r1[i], s1[i], tt[i], v1[i], v2[i], v3[i] =
      rule[R_ALG](key, x1, x2, x3, rule[R_LIMIT], rule[R_WINDOW], rule[R_BURST], rule[R_MAX_DELAY], cost, now)
    local pen = rule[R_PEN]
    if pen then pb[i] = penalize(pen, key, i, now) else pb[i] = false end
    if st[i] ~= 1 and not rule[R_SHADOW] then allowed = 0 end
  end

  reply[rb + 1], reply[rb + 2] = allowed, now
  rb = rb + 2
  for i = 1, n do
    local status, rule = st[i], rules[i]
    -- A shadow limit consumes on its own verdict, except a sorted set: a check that is
    -- denied adds no entry to any log, so a shadow log cannot grow on rejected traffic, and
    -- takes no lease (it will not run, so nothing would release it).
    local consumed = status == 1 and (allowed == 1 or (rule[R_SHADOW] and not rule[R_LOG]))
    if consumed and not dry then
      local key = keys[i]
      if rule[R_LOG] then
        if v2[i] == nil then error('concurrency: the check has no lease id') end
        redis.call('ZREMRANGEBYSCORE', key, '-inf', v3[i])
        redis.call('ZADD', key, v1[i], v2[i])
        redis.call('PEXPIRE', key, int(tt[i] + slack))
      else
        state_set(key, rule[R_ENTRY], v1[i], v2[i], v3[i], tt[i], now)
      end
    end
    local block = pb[i]
    if block and not dry then
      local pen = rule[R_PEN]
      local keep = block
      if pen[P_WINDOW] > keep then keep = pen[P_WINDOW] end
      state_set(keys[i], pen[P_ID], now + block, block, now, keep, now)
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
