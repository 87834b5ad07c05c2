-- Takes the rollup lease when free, renews it when the caller holds it (lib/usage/lease.ts).
-- KEYS[1] lease key ("<owner>|<fence>")   KEYS[2] fence counter
-- ARGV[1] owner                            ARGV[2] lease time (ms)
-- Reply: the holder's fencing number, 0 when another owner holds the lease.
local current = redis.call('GET', KEYS[1])
if current then
  local owner, fence = string.match(current, '^(.*)|(%d+)$')
  if owner == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return tonumber(fence)
  end
  return 0
end
local fence = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. fence, 'PX', ARGV[2])
return fence
