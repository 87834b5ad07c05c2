--[[ adjust/algorithms.lua: what a charge or a refund does to each algorithm's counter (after
common.lua; no KEYS or ARGV). docs/algorithms.md, "Adjusting a decided check", states the same.

ADJ[code](key, entry, L, W, B, amount, at, now, slack) moves one limit's counter by amount
units (> 0 a charge, < 0 a refund) for a check decided at time `at`, writes it, and returns
its effect: 0 applied in full, 1 clamped (a refund stopped at zero, a charge at the limit's
capacity), 2 none (nothing left to adjust: the check's window has passed, or the counter is
already at zero or full). A counter never goes below zero nor, by a charge, past its
capacity (B for the meters, L for the windows); the arguments are the check's own.
]]

local ADJ = {}
local min = math.min

-- A charge saturates at cap (never lowering a counter already past it: a delayed meter's
-- reservations), a refund at zero.
local function moved(value, amount, cap)
  if amount > 0 then
    local want = value + amount
    if want > cap then want = cap end
    if want < value then want = value end
    return want
  end
  return max(0, value + amount)
end

local function effect(old, new, wanted)
  if new == old then return 2 elseif new == wanted then return 0 end
  return 1
end

-- token_bucket, leaky_bucket, gcra: the meter's level (x = level*W; gcra TAT = t + x/L)
-- moves by amount*W, at any time the state is alive (a drained meter has nothing to refund).
local function adjust_meter(key, entry, L, W, B, amount, at, now, slack)
  local x, t, s3 = state_get(key, entry)
  if x == nil then
    x, t = 0, now
  elseif s3 ~= W then
    x = cdiv(x * W, s3)
  end
  if now > t then
    x = max(0, x - (now - t) * L)
    t = now
  end
  local new = moved(x, amount * W, B * W)
  if new ~= x then state_set(key, entry, new, t, W, max(1, cdiv(new, L) + t - now), now) end
  return effect(x, new, x + amount * W)
end

-- fixed_window: the check's window's count, while that window is the current one.
local function adjust_fixed(key, entry, L, W, B, amount, at, now, slack)
  local idx = idiv(at, W)
  if idiv(now, W) ~= idx then return 2 end
  local s1, s2 = state_get(key, entry)
  local count = 0
  if s1 == idx then count = s2 end
  local new = moved(count, amount, L)
  if new ~= count then state_set(key, entry, idx, new, nil, (idx + 1) * W - now, now) end
  return effect(count, new, count + amount)
end

-- sliding_window: the count of the check's window, while it is the current or the previous one.
local function adjust_sliding_window(key, entry, L, W, B, amount, at, now, slack)
  local idx, cidx = idiv(now, W), idiv(at, W)
  if cidx ~= idx and cidx ~= idx - 1 then return 2 end
  local s1, s2, s3 = state_get(key, entry)
  local curr, prev = 0, 0
  if s1 == idx then
    curr, prev = s2, s3
  elseif s1 == idx - 1 then
    prev = s2
  end
  local old = curr
  if cidx ~= idx then old = prev end
  local new = moved(old, amount, L)
  if new ~= old then
    if cidx == idx then curr = new else prev = new end
    state_set(key, entry, idx, curr, prev, 2 * W - (now - idx * W), now)
  end
  return effect(old, new, old + amount)
end

-- sliding_log: the units logged at the check's time, while that time is in the window. The
-- entries from that time on are rewritten with their cumulative counts renumbered (the
-- log's member layout: lua/algorithms/sliding-log.lua); a charge adds at most what keeps
-- the window's units <= L.
local function log_parts(member)
  local cum, c = match(member, '^%a(%d+):(%d+)$')
  return tonumber(cum), tonumber(c)
end

local ZADD_CHUNK = 500

local function adjust_log(key, entry, L, W, B, amount, at, now, slack)
  local lo = now - W
  if at <= lo then return 2 end
  local units = 0
  local live = redis.call('ZRANGEBYSCORE', key, '(' .. int(lo), '+inf', 'LIMIT', 0, 1)
  if #live > 0 then
    local last = redis.call('ZRANGE', key, -1, -1)
    local fcum, fcost = log_parts(live[1])
    units = log_parts(last[1]) - fcum + fcost
  end
  local later = redis.call('ZRANGEBYSCORE', key, int(at), '+inf', 'WITHSCORES')
  local pool, rest = 0, {}
  for i = 1, #later, 2 do
    local _, c = log_parts(later[i])
    local ts = tonumber(later[i + 1])
    if ts == at then
      pool = pool + c
    else
      rest[#rest + 1] = ts
      rest[#rest + 1] = c
    end
  end
  local new
  if amount > 0 then new = pool + max(0, min(amount, L - units)) else new = max(0, pool + amount) end
  if new == pool then return 2 end
  local before = redis.call('ZREVRANGEBYSCORE', key, '(' .. int(at), '-inf', 'LIMIT', 0, 1)
  local cum = 0
  if #before > 0 then cum = log_parts(before[1]) end
  redis.call('ZREMRANGEBYSCORE', key, int(at), '+inf')
  local args, newest = {}, nil
  local function add(ts, c)
    cum = cum + c
    local digits = int(cum)
    args[#args + 1] = int(ts)
    args[#args + 1] = char(96 + #digits) .. digits .. ':' .. int(c)
    newest = ts
    if #args >= 2 * ZADD_CHUNK then
      redis.call('ZADD', key, unpack(args))
      args = {}
    end
  end
  if new > 0 then add(at, new) end
  for i = 1, #rest, 2 do add(rest[i], rest[i + 1]) end
  if #args > 0 then redis.call('ZADD', key, unpack(args)) end
  if newest then redis.call('PEXPIRE', key, int(newest + W - now + slack)) end
  return effect(pool, new, pool + amount)
end

-- calendar: the count of the check's period (W its start, B its end, as the check sent them),
-- while that period is the current one; a later period stored (a lagging server) is left alone.
local function adjust_calendar(key, entry, L, W, B, amount, at, now, slack)
  if now >= B then return 2 end
  local s1, s2 = state_get(key, entry)
  local count = 0
  if s1 == W then
    count = s2
  elseif s1 and s1 > W then
    return 2
  end
  local new = moved(count, amount, L)
  if new ~= count then state_set(key, entry, W, new, B, B - now, now) end
  return effect(count, new, count + amount)
end

ADJ[1] = adjust_fixed
ADJ[2] = adjust_log
ADJ[3] = adjust_sliding_window
ADJ[4] = adjust_meter
ADJ[5] = adjust_meter
ADJ[6] = adjust_meter
ADJ[8] = adjust_calendar
