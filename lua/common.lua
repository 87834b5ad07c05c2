--[[ common.lua: helpers shared by the algorithm fragments and check.lua (no KEYS or ARGV).

An algorithm is ALG[code](key, s, L, W, B, maxDelay, cost, now), now in integer ms, s the
key's string state (a table of its integers, from state_get; false when absent; the
sliding log reads its sorted set itself and gets false). It writes nothing and returns, as
multiple values (no table per limit and check: this runs for every limit of every check):
  status          0 rate_limited | 1 admits | 2 cost_exceeds_capacity
  wait, retry     ms: wait when admitted (delay), retry when status 0 (-1: none)
  remaining0, reset0   reported when the check does not consume
  remaining1, reset1   reported when it does (after consumption)
and when admitted also
  ttl, v1, v2, v3  the new state, SET with PX ttl: its two or three integers (v3 nil for
                   two); for the sliding log: ZADD v1 (score) v2 (member), trim up to v3
All numbers are integers below 2^53, so doubles hold them exactly; divisions go through
idiv/cdiv, which correct the one-off a rounded quotient can give near 2^53.
]]

local ALG = {}

-- The library functions the scripts call per limit, as upvalues: in Redis' Lua 5.1 every
-- `math.floor` is two table lookups (the globals, then math) on each call.
local floor, max = math.floor, math.max
local format, match, gmatch, char, byte = string.format, string.match, string.gmatch, string.char, string.byte
local pack, unpack_bytes = struct.pack, struct.unpack
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

--[[ String states are a count byte (2 or 3) and that many little-endian doubles (each an
integer below 2^53), written and read by struct in one C call each: far cheaper than
formatting and matching digits. A state written as text by an earlier version ("x t W")
is still read. States are read and parsed once and written once per call: a key that
several checks of one call share (the tenant's own limit, above all) costs one read, one
parse and one SET however many checks touch it. A later check of the call reads what an
earlier one wrote, from here. The writes happen at the end (flush_states), which no one can
tell apart from writing each time: the call is atomic, every write of it uses the same now,
and the last write's TTL is the one that stays. ]]
local state_nums, state_ttl = {}, {}
local dirty, ndirty = {}, 0

local function parse_state(v)
  if not v then return false end
  local count = byte(v, 1)
  if count == 3 then
    local _, a, b, c = unpack_bytes('<Bddd', v)
    return { a, b, c }
  elseif count == 2 then
    local _, a, b = unpack_bytes('<Bdd', v)
    return { a, b }
  end
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
local function state_prefetch(keys)
  local values = redis.call('MGET', unpack(keys))
  for i = 1, #keys do
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

-- The key's new integers (c nil for a two-integer state), written into its table in place:
-- every limit of a check reads its state before any of them is written, and the keys of
-- one check differ; later checks of the call then read the new state.
local function state_set(key, a, b, c, ttl)
  local s = state_nums[key]
  if not s then
    s = {}
    state_nums[key] = s
  end
  s[1], s[2], s[3] = a, b, c
  if state_ttl[key] == nil then
    ndirty = ndirty + 1
    dirty[ndirty] = key
  end
  state_ttl[key] = ttl
end

local function flush_states()
  for i = 1, ndirty do
    local key = dirty[i]
    local s = state_nums[key]
    local value
    if s[3] then value = pack('<Bddd', 3, s[1], s[2], s[3]) else value = pack('<Bdd', 2, s[1], s[2]) end
    redis.call('SET', key, value, 'PX', state_ttl[key])
  end
end
