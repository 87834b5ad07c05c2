--[[ common.lua: helpers shared by the algorithm fragments and check.lua (no KEYS or ARGV).

An algorithm is ALG[code](key, L, W, B, maxDelay, cost, now), now in integer ms. It reads its
one key (string states through state_get) and returns, without writing anything (no closures:
this runs on every check):
  { status = 0|1|2 (rate_limited | admits | cost_exceeds_capacity),
    wait, retry            -- ms: wait when admitted (delay), retry when status 0
    remaining0, reset0     -- reported when the check does not consume
    remaining1, reset1     -- reported when it does (after consumption)
    value, ttl             -- when admitted: the state string to SET with PX ttl, or for
    member, trim }         -- the sliding log: ZADD value member, trim up to trim, PEXPIRE ttl
All numbers are integers below 2^53, so doubles hold them exactly; divisions go through
idiv/cdiv, which correct the one-off a rounded quotient can give near 2^53.
]]

local ALG = {}

local function idiv(a, b)
  local q = math.floor(a / b)
  if q * b > a then q = q - 1 elseif (q + 1) * b <= a then q = q + 1 end
  return q
end

local function cdiv(a, b)
  return -idiv(-a, b)
end

-- redis.call turns Lua numbers into strings with %.14g (1.7e+15); %d keeps every digit.
local function int(x)
  return string.format('%d', x)
end

local function denied(status, retry, remaining, reset)
  return { status = status, wait = 0, retry = retry, remaining0 = remaining, reset0 = reset,
           remaining1 = remaining, reset1 = reset }
end

--[[ String states are read once and written once per call: a key that several checks of one
call share (the tenant's own limit, above all) costs one GET and one SET however many checks
touch it. A later check of the call reads what an earlier one wrote, from here. The writes
happen at the end (flush_states), which no one can tell apart from writing each time: the call
is atomic, every write of it uses the same now, and the last write's TTL is the one that stays.
state_get answers false for an absent key, as GET does. ]]
local state_value, state_ttl = {}, {}
local dirty, ndirty = {}, 0

local function state_get(key)
  local v = state_value[key]
  if v == nil then
    v = redis.call('GET', key)
    state_value[key] = v
  end
  return v
end

local function state_set(key, value, ttl)
  state_value[key] = value
  if state_ttl[key] == nil then
    ndirty = ndirty + 1
    dirty[ndirty] = key
  end
  state_ttl[key] = ttl
end

local function flush_states()
  for i = 1, ndirty do
    local key = dirty[i]
    redis.call('SET', key, state_value[key], 'PX', state_ttl[key])
  end
end
