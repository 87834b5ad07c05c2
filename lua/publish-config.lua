-- Publishes a compiled configuration version, never going backwards.
-- KEYS[1] version key (string integer)   KEYS[2] snapshot key (JSON)
-- ARGV[1] version                        ARGV[2] snapshot JSON    ARGV[3] pub/sub channel
-- Reply: 1 when published, 0 when Redis already holds this or a newer version.
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local version = tonumber(ARGV[1])
if version <= current then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SET', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[3], ARGV[1])
return 1
