--[[ calendar (code 8): a fixed window with explicit bounds, the calendar period (a day, an
ISO week, a month in the tenant's time zone) that the server computed (lib/shared/calendar.ts):
the script cannot know time zones. Admits when count in the period + cost <= L.
KEY    string state {start, count, end}, kept until the period's end
ARGV   L, W = the period's start (epoch ms), B = its end (maxDelay unused: action reject)
A server whose clock is behind may still send the period before the one the state holds:
the state's later period wins while it lasts, so counting never goes back to an older
period (which would empty the newer one's count). A Redis clock past the end sent (the
server's clock behind) still counts in the period sent, reset 1 ms: the next check is sent
the next period.
Reply  remaining = L - count; resetMs = retryAfterMs = to the period's end (the next period
       starts empty); cost > L is cost_exceeds_capacity.
]]
ALG[8] = function(key, s1, s2, s3, L, W, B, maxDelay, cost, now)
  local start, stop, count = W, B, 0
  if s1 == start then
    count = s2
  elseif s1 and s1 > start and s3 > now then
    start, stop, count = s1, s3, s2
  end
  local reset = max(stop - now, 1)
  if cost > L then return 2, 0, -1, L - count, reset, L - count, reset end
  if count + cost > L then return 0, 0, reset, L - count, reset, L - count, reset end
  local after = count + cost
  return 1, 0, -1, L - count, reset, L - after, reset, reset, start, after, stop
end
