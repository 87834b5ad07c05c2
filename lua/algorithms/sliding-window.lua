--[[ sliding_window (code 3): admits when prev*(W-elapsed)/W + curr + cost <= L, with curr the
count of the aligned window floor(now/W), prev of the one before, elapsed = now mod W.
Compared multiplied by W, so it is integer math: prev*(W-elapsed) + (curr+cost)*W <= L*W.
KEY    string "<windowIndex> <curr> <prev>", PX to the end of the next window
ARGV   L, W (B and maxDelay unused)
Reply  remaining = floor((L*W - prev*(W-elapsed))/W) - curr; resetMs = until both windows
       weigh nothing; retryAfterMs = the first ms at which the weighted count has dropped
       enough (later in this window as prev's weight falls, or in the next one).
]]
ALG[3] = function(limit, cost, now)
  local L, W = limit.L, limit.W
  local idx = idiv(now, W)
  local e = now - idx * W
  local curr, prev = 0, 0
  local s = read_ints(limit.key)
  if s and s[1] == idx then
    curr, prev = s[2], s[3]
  elseif s and s[1] == idx - 1 then
    prev = s[2]
  end
  local weighted = prev * (W - e)
  local function remaining(c)
    return math.max(0, idiv(L * W - weighted - c * W, W))
  end
  local function reset(c)
    if c > 0 then return 2 * W - e elseif prev > 0 then return W - e end
    return 0
  end
  if cost > L then return denied(2, -1, remaining(curr), reset(curr)) end
  if weighted + (curr + cost) * W > L * W then
    local retry
    if curr + cost <= L then
      -- first elapsed e1 with prev*(W-e1) <= (L-curr-cost)*W, still within this window
      retry = W - idiv((L - curr - cost) * W, prev) - e
    else
      -- next window: curr becomes prev; first e2 with curr*(W-e2) <= (L-cost)*W
      retry = (W - e) + W - idiv((L - cost) * W, curr)
    end
    return denied(0, retry, remaining(curr), reset(curr))
  end
  local after = curr + cost
  return { status = 1, wait = 0, retry = -1, remaining0 = remaining(curr), reset0 = reset(curr),
           remaining1 = remaining(after), reset1 = reset(after),
           write = function(slack)
             redis.call('SET', limit.key, int(idx) .. ' ' .. int(after) .. ' ' .. int(prev),
               'PX', int(2 * W - e + slack))
           end }
end
