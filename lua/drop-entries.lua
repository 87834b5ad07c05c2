--[[ drop-entries.lua: counters removed from owner keys (POST /api/admin/reset).

Loaded after lua/common.lua (its record format and parse_owner; lib/limiter/script.ts).

KEYS      owner keys of one tenant (one hash tag, one Cluster slot)
ARGV[1]   'count' (only count them) or 'drop'
ARGV[2..] entry names (8 characters each)
Reply     how many of those entries the keys held (with 'drop': removed). A key left
          without entries is deleted; the others keep their TTL.
]]

local drop = ARGV[1] == 'drop'
local names = {}
for j = 2, #ARGV do names[ARGV[j]] = true end
local kept = function(o, base) return not names[o[base]] end
local found = 0
for i = 1, #KEYS do
  local key = KEYS[i]
  local o = parse_owner(redis.call('GET', key))
  local here = 0
  for j = 2, #ARGV do
    if o[ARGV[j]] then here = here + 1 end
  end
  found = found + here
  if drop and here > 0 then
    local value, n = owner_value(o, kept)
    if n == 0 then redis.call('DEL', key) else redis.call('SET', key, value, 'KEEPTTL') end
  end
end
return found
