-- Releases the lease if the caller's token still holds it (lib/usage/lease.ts).
-- KEYS[1] lease key   ARGV[1] token
-- Reply: 1 when released, 0 otherwise.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
