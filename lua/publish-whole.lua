-- Installs a whole configuration written beforehand, in chunks, to two staging hashes
-- (lib/config/publish.ts): a fresh or flushed Redis, or one the healer found behind.
-- Swapped in by RENAME, so servers never read a half-written whole. A new epoch tells every
-- server to reload everything; versions applied above the watermark are forgotten (the
-- whole may predate them: the healer republishes what PostgreSQL has past it).
-- KEYS[1..7] as publish-parts.lua   KEYS[8] staged parts   KEYS[9] staged part versions
-- ARGV[1] version  ARGV[2] pub/sub channel  ARGV[3] new epoch
-- Reply: 1 installed, 0 Redis already holds a whole at this version or newer.
local mark = tonumber(redis.call('GET', KEYS[1]) or '0')
local version = tonumber(ARGV[1])
if redis.call('EXISTS', KEYS[7]) == 1 and version <= mark then
  redis.call('DEL', KEYS[8], KEYS[9])
  return 0
end
if redis.call('EXISTS', KEYS[8]) == 1 then
  redis.call('RENAME', KEYS[8], KEYS[2])
  redis.call('RENAME', KEYS[9], KEYS[3])
  redis.call('PERSIST', KEYS[2])
  redis.call('PERSIST', KEYS[3])
else
  redis.call('DEL', KEYS[2], KEYS[3])
end
redis.call('DEL', KEYS[6], KEYS[4])
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[7], ARGV[3])
local seq = redis.call('INCR', KEYS[5])
redis.call('LPUSH', KEYS[4], seq .. ' *')
redis.call('PUBLISH', ARGV[2], seq)
return 1
