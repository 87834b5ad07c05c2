--[[ adjust/adjust.lua: a decided check charged or refunded, once per idempotency key, in one
atomic step (POST /api/check/adjust; loaded after common.lua and adjust/algorithms.lua).

KEYS[1]     the check's adjustment record, a hash {t:<tenant>}:adj:<check id's MAC>:
              n            units adjusted so far (signed; the check holds cost + n)
              k:<key>      the reply given to the adjustment with idempotency key <key>
KEYS[2..]   the state keys of the check's limits (owner keys, sliding logs), one tenant's
ARGV[1]     amount: units to charge (> 0) or refund (< 0), never 0
ARGV[2]     idempotency key (text; "" when none was given)
ARGV[3]     the check's time (ms, Redis TIME as the check saw it)
ARGV[4]     the check's cost
ARGV[5]     the time (ms) after which the check can no longer be adjusted
ARGV[6]     the most the check may hold in all (cost + n)
ARGV[7]     now override in ms, test-only virtual clock (-1 = Redis TIME)
ARGV[8 + 6*(i-1) ..] six values per limit i: its key's index in KEYS, algorithm code, L,
            W, B, entry (the values the check sent: lua/check.lua's ARGV)

Reply: { status, held, nowMs, then one effect per limit }
  status  0 applied, 1 replayed (this idempotency key was used: the first reply's held and
          effects, nothing changed), 2 expired, 3 refund over what the check holds,
          4 charge over the most a check may hold; nothing changes unless status is 0
  held    units the check holds after the adjustment (before it when refused)
  effect  0 applied in full, 1 clamped, 2 none (adjust/algorithms.lua)
]]

local function adjust_clock(override)
  if override < 0 then
    local t = redis.call('TIME')
    return tonumber(t[1]) * 1000 + floor(tonumber(t[2]) / 1000), 0
  end
  return override, 3600000
end

local record = KEYS[1]
local amount, ikey = tonumber(ARGV[1]), 'k:' .. ARGV[2]
local at, cost, expires, most = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local now, slack = adjust_clock(tonumber(ARGV[7]))

local seen = redis.call('HGET', record, ikey)
if seen then
  local reply = { 1 }
  for v in string.gmatch(seen, '[^,]+') do reply[#reply + 1] = tonumber(v) end
  return reply
end
local held = cost + tonumber(redis.call('HGET', record, 'n') or '0')
if now > expires then return { 2, held, now } end
if held + amount < 0 then return { 3, held, now } end
if held + amount > most then return { 4, held, now } end

local reply = { 0, held + amount, now }
local n = (#ARGV - 7) / 6
for i = 1, n do
  local a = 7 + 6 * (i - 1)
  local key = KEYS[tonumber(ARGV[a + 1])]
  reply[3 + i] = ADJ[tonumber(ARGV[a + 2])](key, ARGV[a + 6], tonumber(ARGV[a + 3]),
    tonumber(ARGV[a + 4]), tonumber(ARGV[a + 5]), amount, at, now, slack)
end
flush_states(now, slack)

local stored = {}
for i = 2, #reply do stored[i - 1] = int(reply[i]) end
redis.call('HSET', record, 'n', int(held + amount - cost), ikey, table.concat(stored, ','))
redis.call('PEXPIRE', record, int(max(1, expires - now) + slack))
return reply
