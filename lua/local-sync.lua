--[[ local-sync.lua: one server's sync of its local counters of ONE tenant (consistency: local).

Every sync interval each server pushes what it counted since its last sync and reads back
the converged state, which holds every server's increments. All KEYS carry the tenant's
hash tag, so on a Redis Cluster the call is one slot. Each key is a hash {a, b, c}:
  fixed_window / sliding_window (code 1 / 3): a = window index (floor(now / W)), b = its
    count, c = the previous window's count; increments are tagged with the window the
    server counted them in (an increment of a window that has passed is dropped, one of
    the window before counts as previous);
  token_bucket (code 4): a = level x (units used times W, draining L per ms), b = its time;
    increments are units, added at the call's time. The level may pass the capacity
    (servers admitted at once): it drains, so the overshoot is paid back.
KEYS   the counters' keys
ARGV   per key six integers: code, L, W, then the increments a, b, c (windows: index, count,
       previous count, index -1 for none; bucket: units, 0, 0)
Reply  the call's time (Redis TIME, ms), then per key its converged a, b, c
]]

local floor, max, format = math.floor, math.max, string.format

local function idiv(a, b)
  local q = floor(a / b)
  if q * b > a then q = q - 1 elseif (q + 1) * b <= a then q = q + 1 end
  return q
end

local function int(x)
  return format('%d', x)
end

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + floor(tonumber(t[2]) / 1000)
local reply = { now }

for i = 1, #KEYS do
  local key, base = KEYS[i], (i - 1) * 6
  local code, L, W = tonumber(ARGV[base + 1]), tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3])
  local ia, ib, ic = tonumber(ARGV[base + 4]), tonumber(ARGV[base + 5]), tonumber(ARGV[base + 6])
  local s = redis.call('HMGET', key, 'a', 'b', 'c')
  local a, b, c = tonumber(s[1]), tonumber(s[2]), tonumber(s[3])
  local ttl
  if code == 4 then
    a, b = a or 0, b or now
    if now > b then
      a = max(0, a - (now - b) * L)
      b = now
    end
    a = a + ia * W
    c = 0
    ttl = idiv(a + L - 1, L) + W
  else
    a, b, c = a or -1, b or 0, c or 0
    local to = max(a, ia, idiv(now, W))
    if a ~= to then
      if a == to - 1 then c = b else c = 0 end
      b, a = 0, to
    end
    if ia == to then
      b, c = b + ib, c + ic
    elseif ia == to - 1 then
      c = c + ib
    end
    ttl = (to + 2) * W - now
  end
  redis.call('HSET', key, 'a', int(a), 'b', int(b), 'c', int(c))
  redis.call('PEXPIRE', key, int(max(1, ttl)))
  reply[#reply + 1], reply[#reply + 2], reply[#reply + 3] = a, b, c
end
return reply
