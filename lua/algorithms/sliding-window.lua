--[[ sliding_window (code 3): admits when prev*(W-elapsed)/W + curr + cost <= L, with curr the
count of the aligned window floor(now/W), prev of the one before, elapsed = now mod W.
Compared multiplied by W, so it is integer math: prev*(W-elapsed) + (curr+cost)*W <= L*W.
KEY    string state {windowIndex, curr, prev}, PX to the end of the next window
ARGV   L, W (B and maxDelay unused)
Reply  remaining = floor((L*W - prev*(W-elapsed))/W) - curr; resetMs = until both windows
       weigh nothing; retryAfterMs = the first ms at which the weighted count has dropped
       enough (later in this window as prev's weight falls, or in the next one).
]]
local function sw_remaining(L, W, weighted, c)
  return max(0, idiv(L * W - weighted - c * W, W))
end

local function sw_reset(W, e, prev, c)
  if c > 0 then return 2 * W - e elseif prev > 0 then return W - e end
  return 0
end

ALG[3] = function(key, s1, s2, s3, L, W, B, maxDelay, cost, now)
  local idx = idiv(now, W)
  local e = now - idx * W
  local curr, prev = 0, 0
  if s1 == idx then
    curr, prev = s2, s3
  elseif s1 == idx - 1 then
    prev = s2
  end
  local weighted = prev * (W - e)
  local rem0, reset0 = sw_remaining(L, W, weighted, curr), sw_reset(W, e, prev, curr)
  if cost > L then return 2, 0, -1, rem0, reset0, rem0, reset0 end
  if weighted + (curr + cost) * W > L * W then
    local retry
    if curr + cost <= L then
      -- first elapsed e1 with prev*(W-e1) <= (L-curr-cost)*W, still within this window
      retry = W - idiv((L - curr - cost) * W, prev) - e
    else
      -- next window: curr becomes prev; first e2 with curr*(W-e2) <= (L-cost)*W
      retry = (W - e) + W - idiv((L - cost) * W, curr)
    end
    return 0, 0, retry, rem0, reset0, rem0, reset0
  end
  local after = curr + cost
  return 1, 0, -1, rem0, reset0, sw_remaining(L, W, weighted, after), sw_reset(W, e, prev, after),
    2 * W - e, idx, after, prev
end
