--[[ concurrency (code 7): at most L leases held at once; a lease is one check in flight.
KEY    sorted set of the leases held: member = the lease id (the check's, sent by the caller
       of the script: LEASE below), score = the time (ms) it expires, now + W when taken. A
       lease ends when released (lua/concurrency-release.lua: ZREM) or at its expiry; one
       expired is dropped at the next write. PX until the latest lease expires.
ARGV   L, W (the lease timeout, ms); B and maxDelay unused. The cost is not counted: a check
       takes one slot whatever its cost, so it is never cost_exceeds_capacity.
Reply  held = leases whose expiry is after now; admits when held < L.
       remaining = L - held (after the new lease when admitted); resetMs = until the latest
       lease expires (every slot free with no release); retryAfterMs when denied = until
       enough leases expire for one slot (held - L + 1 of them): a release frees one sooner.
Writes go through run-check.lua like the sliding log's: v1 = the score, v2 = the member,
v3 = the trim bound (leases expired by now), ttl = until the latest lease expires.
]]
-- the lease id of the check being decided (run_check sets it; nil when it has none)
local LEASE = nil

ALG[7] = function(key, s1, s2, s3, L, W, B, maxDelay, cost, now)
  local held = redis.call('ZCOUNT', key, '(' .. int(now), '+inf')
  local reset0 = 0
  if held > 0 then
    local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
    reset0 = tonumber(last[2]) - now
  end
  local rem0 = max(0, L - held)
  if held >= L then
    -- the (held - L + 1)-th live lease to expire frees the first slot
    local stale = redis.call('ZCOUNT', key, '-inf', int(now))
    local rank = stale + held - L
    local e = redis.call('ZRANGE', key, rank, rank, 'WITHSCORES')
    return 0, 0, tonumber(e[2]) - now, rem0, reset0, rem0, reset0
  end
  local reset1 = max(reset0, W)
  return 1, 0, -1, rem0, reset0, L - held - 1, reset1, reset1, int(now + W), LEASE, int(now)
end
