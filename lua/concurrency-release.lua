--[[ concurrency-release.lua: one lease released from every in-flight limit of its check.
KEYS   the lease sets of the check's concurrency limits (one hash tag {t:<tenant>})
ARGV[1] the lease id
Reply  how many sets held it: 0 when it was released before or has expired (idempotent).
]]
local n = 0
for i = 1, #KEYS do n = n + redis.call('ZREM', KEYS[i], ARGV[1]) end
return n
