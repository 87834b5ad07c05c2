--[[ common.lua: helpers shared by the algorithm fragments and check.lua (no KEYS or ARGV).

An algorithm is ALG[code](key, s1, s2, s3, L, W, B, maxDelay, cost, now), now in integer
ms, s1..s3 its counter's state (from state_get: its integers, s1 nil when absent; the
sliding log reads its sorted set at key itself and gets nil). It writes nothing and returns, as
multiple values (no table per limit and check: this runs for every limit of every check):
  status          0 rate_limited | 1 admits | 2 cost_exceeds_capacity
  wait, retry     ms: wait when admitted (delay), retry when status 0 (-1: none)
  remaining0, reset0   reported when the check does not consume
  remaining1, reset1   reported when it does (after consumption)
and when admitted also
  ttl, v1, v2, v3  the new state, kept for ttl ms: its two or three integers (v3 nil for
                   two); for the sliding log: ZADD v1 (score) v2 (member), trim up to v3
All numbers are integers below 2^53, so doubles hold them exactly; divisions go through
idiv/cdiv, which correct the one-off a rounded quotient can give near 2^53.
]]

local ALG = {}

-- The library functions the scripts call per limit, as upvalues: in Redis' Lua 5.1 every
-- `math.floor` is two table lookups (the globals, then math) on each call.
local floor, max = math.floor, math.max
local format, match, byte, char = string.format, string.match, string.byte, string.char
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

--[[ Counter states. Every counter of one owner (tenant, key or subject) is an entry of ONE
string key (lib/limiter/keys.ts): records of 40 bytes, each an 8-character entry name and
four little-endian doubles (integers below 2^53): the state's integers (two or three; a
third of 0 when two) and the time (ms) after which the state no longer matters. A key is
read with one struct call for all its records into one flat table and written back the
same way: no table or string per record. An entry past its time is equivalent to an
absent one (a drained meter, an old window) and is dropped at the next write; the key
expires with its last entry. A key is read and parsed once and written once per call: a
key that several checks of one call share (the tenant's own, above all) costs one read,
one parse and one SET however many checks touch it. A later check of the call reads what
an earlier one wrote, from here. The writes happen at the end (flush_states), which no one
can tell apart from writing each time: the call is atomic and every write of it uses the
same now. ]]

-- key -> o: o.n records, record r (0-based) at base = 5r + 1: o[base] its entry name,
-- o[base + 1 .. base + 4] its three integers and its end; o[name] = base
local owners = {}
local dirty, ndirty = {}, 0
local formats = {}

local function records_format(n)
  local f = formats[n]
  if not f then
    f = '<' .. string.rep('c8dddd', n)
    formats[n] = f
  end
  return f
end

local function parse_owner(v)
  if not v then return { n = 0 } end
  local n = floor(#v / 40)
  if n == 0 then return { n = 0 } end
  local o = { unpack_bytes(records_format(n), v) }
  o[5 * n + 1] = nil -- struct's next position
  o.n = n
  for base = 1, 5 * n, 5 do o[o[base]] = base end
  return o
end

-- The value of an owner key holding the records of o for which keep(o, base) holds, their
-- number, and the latest end among them.
local function owner_value(o, keep)
  local kept, k, last = o, o.n, 0
  for base = 1, 5 * o.n, 5 do
    if not keep(o, base) then kept = nil break end
  end
  if not kept then
    kept, k = {}, 0
    for base = 1, 5 * o.n, 5 do
      if keep(o, base) then
        for j = 0, 4 do kept[5 * k + 1 + j] = o[base + j] end
        k = k + 1
      end
    end
  end
  for base = 5, 5 * k, 5 do
    if kept[base] > last then last = kept[base] end
  end
  if k == 0 then return nil, 0, last end
  return pack(records_format(k), unpack(kept, 1, 5 * k)), k, last
end

-- Reads every state key of the call with ONE command (all share the hash tag, so one slot):
-- one MGET costs Redis far less than a GET per key. Sorted sets (sliding logs) read as nil
-- here and are never used as owner keys.
local function state_prefetch(keys)
  local values = redis.call('MGET', unpack(keys))
  for i = 1, #keys do
    local key = keys[i]
    if owners[key] == nil then owners[key] = parse_owner(values[i]) end
  end
end

-- The integers of entry `id` of key, or nothing when it is absent.
local function state_get(key, id)
  local o = owners[key]
  if o == nil then
    o = parse_owner(redis.call('GET', key))
    owners[key] = o
  end
  local base = o[id]
  if base then return o[base + 1], o[base + 2], o[base + 3] end
end

-- The entry's new integers (c nil for a two-integer state), kept until now + ttl. Every
-- limit of a check reads its state before any is written, and the counters of one check
-- differ; later checks of the call then read the new state.
local function state_set(key, id, a, b, c, ttl, now)
  local o = owners[key]
  local base = o[id]
  if not base then
    base = 5 * o.n + 1
    o.n = o.n + 1
    o[id] = base
    o[base] = id
  end
  o[base + 1], o[base + 2], o[base + 3], o[base + 4] = a, b, c or 0, now + ttl
  if not dirty[key] then
    dirty[key] = true
    ndirty = ndirty + 1
    dirty[ndirty] = key
  end
end

-- Writes every key the call changed: its live entries, PX until the last of them ends
-- (+ slack under a virtual clock, see call_clock).
local function flush_states(now, slack)
  local live = function(o, base) return o[base + 4] > now end
  for i = 1, ndirty do
    local key = dirty[i]
    local value, _, last = owner_value(owners[key], live)
    redis.call('SET', key, value, 'PX', int(last - now + slack))
  end
end
