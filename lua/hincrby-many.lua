-- Adds many counts to one hash and sets its TTL (lib/usage/flush.ts): one command for what
-- were as many HINCRBY as fields, which cost the flushing process a command object each and
-- Redis a command dispatch each (a realistic mix has thousands of fields a second).
-- KEYS[1] hash   ARGV[1] TTL in seconds, then field, count pairs
-- Reply: 0.
local key = KEYS[1]
for i = 2, #ARGV, 2 do
  redis.call('HINCRBY', key, ARGV[i], ARGV[i + 1])
end
redis.call('EXPIRE', key, ARGV[1])
return 0
