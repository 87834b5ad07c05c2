-- Appends per-second entries to many fields of one hash and sets its TTL (lib/usage/record/flush.ts,
-- lib/usage/pair-series.ts): a field's value is "<second>:<count>" entries, comma-separated,
-- and each flush of each process adds its own; readers add up a second that appears twice.
-- One HMGET and one HSET for all the fields (a command per field cost Redis more than the
-- appending): the caller sends at most a few hundred fields a call, well within Lua's stack.
-- KEYS[1] hash   ARGV[1] TTL in seconds, then field, entries pairs
-- Reply: 0.
local key = KEYS[1]
local fields = {}
for i = 2, #ARGV, 2 do fields[#fields + 1] = ARGV[i] end
local old = redis.call('HMGET', key, unpack(fields))
local args = {}
for j = 1, #fields do
  local add = ARGV[2 * j + 1]
  local before = old[j]
  args[2 * j - 1] = fields[j]
  if before then args[2 * j] = before .. ',' .. add else args[2 * j] = add end
end
redis.call('HSET', key, unpack(args))
redis.call('EXPIRE', key, ARGV[1])
return 0
