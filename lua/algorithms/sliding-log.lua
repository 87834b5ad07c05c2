--[[ sliding_log (code 2): admits when units admitted in (now-W, now] + cost <= L (exact).
KEY    sorted set, one entry per admitted check: score = its time (ms), member
       "<c><cumulative units after it>:<its cost>", so the units in the window are
       last.cum - first.cum + first.cost in O(log n). <c> is a letter giving the number of
       digits (a = 1), so entries of one ms sort by cum too (members compare as text).
       Trimmed to the window on every write and PEXPIRE W: never more than L entries.
ARGV   L, W (B and maxDelay unused)
Reply  remaining = L - units; resetMs = until the newest entry leaves the window;
       retryAfterMs = until enough of the oldest units leave it (binary search by rank).
]]
local function log_entry(key, rank)
  local e = redis.call('ZRANGE', key, rank, rank, 'WITHSCORES')
  if #e == 0 then return nil end
  local cum, c = match(e[1], '^%a(%d+):(%d+)$')
  return { cum = tonumber(cum), cost = tonumber(c), ts = tonumber(e[2]) }
end

-- Writes go through run-check.lua: v1 = the entry's score, v2 = its member, v3 = the trim bound.
ALG[2] = function(key, s1, s2, s3, L, W, B, maxDelay, cost, now)
  local lo = now - W
  local stale = redis.call('ZCOUNT', key, '-inf', int(lo))
  local first = log_entry(key, stale)
  local last = log_entry(key, -1)
  local units, newest = 0, now
  if first then
    units = last.cum - first.cum + first.cost
    newest = last.ts
  end
  local reset0 = 0
  if units > 0 then reset0 = newest + W - now end
  if cost > L then return 2, 0, -1, L - units, reset0, L - units, reset0 end
  if units + cost > L then
    -- the first entry whose leaving frees enough: cum >= first.cum - first.cost + need
    local target = first.cum - first.cost + (units + cost - L)
    local lo_rank, hi_rank = stale, redis.call('ZCARD', key) - 1
    while lo_rank < hi_rank do
      local mid = idiv(lo_rank + hi_rank, 2)
      if log_entry(key, mid).cum >= target then hi_rank = mid else lo_rank = mid + 1 end
    end
    local retry = log_entry(key, lo_rank).ts + W - now
    return 0, 0, retry, L - units, reset0, L - units, reset0
  end
  -- a clock that stepped back must not reorder the log: never stamp before the newest entry
  local ts = now
  if last and last.ts > ts then ts = last.ts end
  local cum = cost
  if last then cum = last.cum + cost end
  local digits = int(cum)
  return 1, 0, -1, L - units, reset0, L - units - cost, ts + W - now, ts + W - now,
    int(ts), char(96 + #digits) .. digits .. ':' .. int(cost), int(lo)
end
