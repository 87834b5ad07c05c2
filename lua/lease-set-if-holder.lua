-- Sets a job key only while the caller's token is the lease's value (lib/usage/lease.ts).
-- KEYS[1] lease key   KEYS[2] key to set   ARGV[1] token   ARGV[2] value
-- Reply: 1 when set, 0 when the lease is another's (or gone).
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
return 1
