--[[ concurrency-release.lua: one lease released from every in-flight limit of its check.
KEYS   the lease sets of the check's concurrency limits (one hash tag {t:<tenant>})
ARGV[1] the lease id
ARGV[2] optional: now override in ms, the test-only virtual clock check.lua takes (absent or
        -1 = Redis TIME; lib/check/limiter/clock.ts)
Reply  how many sets held it unexpired: 0 when it was released before or has expired
       (idempotent). A set's score is the lease's expiry there (ms, the clock of the check
       that took it): a lease past its expiry in any of its sets has expired, though no
       write has trimmed it yet; it is removed from every set all the same.
]]
local now = tonumber(ARGV[2] or '-1')
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local n, expired = 0, false
for i = 1, #KEYS do
  local score = redis.call('ZSCORE', KEYS[i], ARGV[1])
  if score then
    if tonumber(score) <= now then expired = true end
    n = n + redis.call('ZREM', KEYS[i], ARGV[1])
  end
end
if expired then return 0 end
return n
