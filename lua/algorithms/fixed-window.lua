--[[ fixed_window (code 1): admits when count in window floor(now/W) + cost <= L.
KEY    string state {windowIndex, count}, PX to the window's end
ARGV   L, W (B and maxDelay unused)
Reply  remaining = L - count; resetMs = to the window's end; retryAfterMs = to the window's
       end (the next window starts empty); cost > L is cost_exceeds_capacity.
]]
ALG[1] = function(key, s1, s2, s3, L, W, B, maxDelay, cost, now)
  local idx = idiv(now, W)
  local count = 0
  if s1 == idx then count = s2 end
  local reset = (idx + 1) * W - now
  if cost > L then return 2, 0, -1, L - count, reset, L - count, reset end
  if count + cost > L then return 0, 0, reset, L - count, reset, L - count, reset end
  local after = count + cost
  return 1, 0, -1, L - count, reset, L - after, reset, reset, idx, after
end
