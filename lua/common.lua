--[[ common.lua: helpers shared by the algorithm fragments and check.lua (no KEYS or ARGV).

An algorithm is ALG[code](key, L, W, B, maxDelay, cost, now), now in integer ms. It reads its
one key and returns, without writing anything (no closures: this runs on every check):
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
