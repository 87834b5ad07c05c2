--[[ read-owners.lua: every counter of some owners of one tenant, read only, in ONE call
(the dashboard's limit tree, lib/control/limit-tree/limit-tree-counters.ts; never on the check path).

Loaded after lua/common.lua (its helpers; lib/limiter/script.ts).

KEYS      ARGV[1] owner keys, then sliding-log keys (one hash tag, one Cluster slot)
ARGV[1]   how many of KEYS are owner keys
ARGV[2..] the window (ms) of each sliding-log key, in KEYS order; 0 marks a concurrency
          limit's lease set (lua/algorithms/concurrency.lua), read as the leases held
Reply     now (ms, Redis TIME); then per owner key its value as stored (the 40-byte
          records of lua/common.lua, decoded by the caller: no table per record here), or
          nil; then per log key the units it admitted in (now - W, now], read as
          lua/algorithms/sliding-log.lua reads them.
]]

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + floor(tonumber(t[2]) / 1000)
local owners_n = tonumber(ARGV[1])
local out = { now }
local CHUNK = 500

for first = 1, owners_n, CHUNK do
  local last = math.min(owners_n, first + CHUNK - 1)
  local values = redis.call('MGET', unpack(KEYS, first, last))
  -- a sorted set reads as false (nil in the reply) like an absent key
  for i = 1, last - first + 1 do out[#out + 1] = values[i] end
end

local function log_cum(key, rank)
  local e = redis.call('ZRANGE', key, rank, rank)
  if #e == 0 then return nil end
  local cum, c = match(e[1], '^%a(%d+):(%d+)$')
  return tonumber(cum), tonumber(c)
end

for i = owners_n + 1, #KEYS do
  local key = KEYS[i]
  local window = tonumber(ARGV[i - owners_n + 1])
  if window == 0 then
    out[#out + 1] = redis.call('ZCOUNT', key, '(' .. format('%d', now), '+inf')
  else
  local stale = redis.call('ZCOUNT', key, '-inf', format('%d', now - window))
  local first_cum, first_cost = log_cum(key, stale)
  local units = 0
  if first_cum then units = log_cum(key, -1) - first_cum + first_cost end
  out[#out + 1] = units
  end
end
return out
