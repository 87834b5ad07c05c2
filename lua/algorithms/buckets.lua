--[[ token_bucket (code 4), leaky_bucket (code 5), gcra (code 6): one meter, three readings.
With capacity B (default L) draining/refilling at L/W per ms, all three admit exactly when
  level + cost <= B
where level = B - tokens (token bucket), the meter's level (leaky bucket), or
max(TAT-now, 0)/T with T = W/L (gcra: max(TAT,now) + cost*T - now <= tau + T = B*T).
The level is kept multiplied by W, so it is an integer that drains by L per ms: x = level*W.
KEY    string state {x, t, W}: x at time t (ms), scaled by W; absent = empty meter (full
       bucket). PX until x has drained to 0, so idle state disappears. gcra: TAT = t + x/L.
ARGV   L, W, B, maxDelay (ms; -1 = reject; gcra and leaky_bucket only). The caller may
       pass L and W divided by their gcd (same rate, smaller numbers); a state stored at
       another scale (the limit's rate changed) is rescaled, keeping its level.
Reply  remaining = floor(B - level) (gcra: floor((tau+T-(TAT-now))/T), as redis-cell);
       resetMs = ceil(x/L) (gcra TAT-now; token bucket: until refilled to B);
       delay: over = x + cost*W - B*W; admitted with waitMs = ceil(over/L) when
       over <= maxDelay*L, else denied and nothing is reserved;
       retryAfterMs = ceil((over - maxDelay*L)/L) (maxDelay 0 for reject);
       cost > B is cost_exceeds_capacity.
]]
local function meter_remaining(cap, W, v)
  return max(0, idiv(cap - v, W))
end

local function meter(key, s1, s2, s3, L, W, B, maxDelay, cost, now)
  local x, t = 0, now
  if s1 then
    x, t = s1, s2
    if s3 ~= W then x = cdiv(x * W, s3) end
  end
  -- Drained for the time since t; (now-t)*L may pass 2^53 only when it passes x too.
  if now > t then
    x = max(0, x - (now - t) * L)
    t = now
  end
  local cap = B * W
  local rem0, reset0 = meter_remaining(cap, W, x), cdiv(x, L)
  if cost > B then return 2, 0, -1, rem0, reset0, rem0, reset0 end
  local after = x + cost * W
  local over = after - cap
  local delay = max(maxDelay, 0)
  if over > delay * L then
    return 0, 0, cdiv(over - delay * L, L), rem0, reset0, rem0, reset0
  end
  local wait = 0
  if over > 0 then wait = cdiv(over, L) end
  local reset1 = cdiv(after, L)
  return 1, wait, -1, rem0, reset0, meter_remaining(cap, W, after), reset1,
    max(1, reset1 + t - now), after, t, W
end

ALG[4] = meter
ALG[5] = meter
ALG[6] = meter
