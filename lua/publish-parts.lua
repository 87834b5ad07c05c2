-- Publishes the parts one config version changed (lib/config/publish.ts). Versions may
-- arrive out of order (two changes commit, the later one publishes first) or more than once
-- (the healer): a part is written only when this version is newer than the one that last
-- wrote it, so every part ends at its newest value whatever the order.
-- KEYS[1] version: the watermark, every version up to it has been applied
-- KEYS[2] parts hash (scope -> JSON)   KEYS[3] part versions hash (scope -> version)
-- KEYS[4] change log (list, newest first: "<seq> <scope> <scope>..."; "<seq> *": reload all)
-- KEYS[5] publish sequence             KEYS[6] versions applied above the watermark (zset)
-- KEYS[7] epoch (set by a whole publish; absent: Redis holds no whole configuration)
-- ARGV[1] version  ARGV[2] pub/sub channel  ARGV[3] log length kept  ARGV[4] most scopes in
-- one log entry (past it: "*")  then pairs of scope, JSON ("" when the version removed it)
-- Reply: 1 published, 0 already had it, -1 no whole configuration here (publish it whole).
if redis.call('EXISTS', KEYS[7]) == 0 then return -1 end
local mark = tonumber(redis.call('GET', KEYS[1]) or '0')
local version = tonumber(ARGV[1])
if version <= mark or redis.call('ZSCORE', KEYS[6], ARGV[1]) then return 0 end
local changed = {}
for i = 5, #ARGV, 2 do
  local scope, value = ARGV[i], ARGV[i + 1]
  local last = tonumber(redis.call('HGET', KEYS[3], scope) or '0')
  if last < version then
    redis.call('HSET', KEYS[3], scope, ARGV[1])
    if value == '' then redis.call('HDEL', KEYS[2], scope) else redis.call('HSET', KEYS[2], scope, value) end
    changed[#changed + 1] = scope
  end
end
if version == mark + 1 then
  mark = version
  while redis.call('ZSCORE', KEYS[6], tostring(mark + 1)) do
    redis.call('ZREM', KEYS[6], tostring(mark + 1))
    mark = mark + 1
  end
  redis.call('SET', KEYS[1], mark)
else
  redis.call('ZADD', KEYS[6], version, ARGV[1])
end
local seq = redis.call('INCR', KEYS[5])
local entry = seq .. ' *'
if #changed <= tonumber(ARGV[4]) then entry = seq .. ' ' .. table.concat(changed, ' ') end
redis.call('LPUSH', KEYS[4], entry)
redis.call('LTRIM', KEYS[4], 0, tonumber(ARGV[3]) - 1)
redis.call('PUBLISH', ARGV[2], seq)
return 1
