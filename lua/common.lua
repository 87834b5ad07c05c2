--[[ common.lua: helpers shared by the algorithm fragments and check.lua (no KEYS or ARGV).

An algorithm is ALG[code](key, L, W, B, maxDelay, cost, now), now in integer ms. It reads its
one key (string states through state_get, as a table of their integers) and returns, without
writing anything (no closures: this runs on every check):
  { status = 0|1|2 (rate_limited | admits | cost_exceeds_capacity),
    wait, retry            -- ms: wait when admitted (delay), retry when status 0
    remaining0, reset0     -- reported when the check does not consume
    remaining1, reset1     -- reported when it does (after consumption)
    value, ttl             -- when admitted: the new state (a new table of its 2 or 3
                              integers) to SET with PX ttl, or for
    member, trim }         -- the sliding log: ZADD value member, trim up to trim, PEXPIRE ttl
All numbers are integers below 2^53, so doubles hold them exactly; divisions go through
idiv/cdiv, which correct the one-off a rounded quotient can give near 2^53.
]]

local ALG = {}

-- The library functions the scripts call per limit, as upvalues: in Redis' Lua 5.1 every
-- `math.floor` is two table lookups (the globals, then math) on each call.
local floor, max = math.floor, math.max
local format, match, gmatch, char = string.format, string.match, string.gmatch, string.char
local concat = table.concat
local tonumber = tonumber

local function idiv(a, b)
  local q = floor(a / b)
  if q * b > a then q = q - 1 elseif (q + 1) * b <= a then q = q + 1 end
  return q
end

local function cdiv(a, b)
  return -idiv(-a, b)
end

-- redis.call turns Lua numbers into strings with %.14g (1.7e+15); %d keeps every digit.
local function int(x)
  return format('%d', x)
end

local function denied(status, retry, remaining, reset)
  return { status = status, wait = 0, retry = retry, remaining0 = remaining, reset0 = reset,
           remaining1 = remaining, reset1 = reset }
end

--[[ String states (a few integers separated by spaces: "x t W", "index count"...) are read
and parsed once and formatted and written once per call: a key that several checks of one
call share (the tenant's own limit, above all) costs one GET, one parse, one format and one
SET however many checks touch it. A later check of the call reads what an earlier one wrote,
from here. The writes happen at the end (flush_states), which no one can tell apart from
writing each time: the call is atomic, every write of it uses the same now, and the last
write's TTL is the one that stays. ]]
local state_nums, state_ttl = {}, {}
local dirty, ndirty = {}, 0

local function parse_state(v)
  if not v then return false end
  local s, n = {}, 0
  for digits in gmatch(v, '%d+') do
    n = n + 1
    s[n] = tonumber(digits)
  end
  return s
end

-- Reads every state key of the call with ONE command (all share the hash tag, so one slot):
-- one MGET costs Redis far less than a GET per key. Sorted sets (sliding logs) read as nil
-- here; their algorithm reads them with its own commands.
-- KEYS of a check-many call are padded with copies of KEYS[1] (lib/limiter/script.ts): those
-- are left out, so no key is read twice.
local function state_prefetch(keys)
  local n = #keys
  while n > 1 and keys[n] == keys[1] do n = n - 1 end
  local values = redis.call('MGET', unpack(keys, 1, n))
  for i = 1, n do
    local key = keys[i]
    if state_nums[key] == nil then state_nums[key] = parse_state(values[i]) end
  end
end

-- The state at key as a table of its integers, or false when the key is absent.
local function state_get(key)
  local s = state_nums[key]
  if s == nil then
    s = parse_state(redis.call('GET', key))
    state_nums[key] = s
  end
  return s
end

-- nums: a new table (never one state_get returned, which others of the call may still read)
local function state_set(key, nums, ttl)
  state_nums[key] = nums
  if state_ttl[key] == nil then
    ndirty = ndirty + 1
    dirty[ndirty] = key
  end
  state_ttl[key] = ttl
end

-- %d, not concat's %.14g: states hold integers up to 2^53
local function flush_states()
  for i = 1, ndirty do
    local key = dirty[i]
    local s = state_nums[key]
    local text
    if #s == 2 then text = format('%d %d', s[1], s[2]) else text = format('%d %d %d', s[1], s[2], s[3]) end
    redis.call('SET', key, text, 'PX', state_ttl[key])
  end
end
