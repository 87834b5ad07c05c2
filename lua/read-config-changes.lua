-- What a server must apply to catch up from the publish sequence it has applied
-- (lib/enforce/config-reader.ts), read in one step so parts and watermark agree.
-- KEYS[1] version (watermark)  KEYS[2] parts hash  KEYS[3] change log  KEYS[4] sequence
-- KEYS[5] epoch
-- ARGV[1] the server's epoch  ARGV[2] the sequence it has applied
-- Reply: { epoch, watermark, sequence, mode, scope1, json1, scope2, json2, ... }
-- mode "none": nothing published yet; "whole": reload everything (new epoch, a "*" entry,
-- or entries trimmed from the log); "parts": the pairs follow ("" for a removed part).
local epoch = redis.call('GET', KEYS[5])
local mark = redis.call('GET', KEYS[1]) or '0'
local seq = tonumber(redis.call('GET', KEYS[4]) or '0')
if not epoch then return { '', mark, tostring(seq), 'none' } end
local head = { epoch, mark, tostring(seq) }
if epoch ~= ARGV[1] then head[4] = 'whole'; return head end
local from = tonumber(ARGV[2])
if seq <= from then head[4] = 'parts'; return head end
local entries = redis.call('LRANGE', KEYS[3], 0, seq - from - 1)
if #entries < seq - from then head[4] = 'whole'; return head end
local seen, scopes = {}, {}
for _, entry in ipairs(entries) do
  local first = true
  for word in string.gmatch(entry, '%S+') do
    if first then
      first = false
    elseif word == '*' then
      head[4] = 'whole'
      return head
    elseif not seen[word] then
      seen[word] = true
      scopes[#scopes + 1] = word
    end
  end
end
head[4] = 'parts'
for start = 1, #scopes, 500 do
  local batch = {}
  for i = start, math.min(start + 499, #scopes) do batch[#batch + 1] = scopes[i] end
  local values = redis.call('HMGET', KEYS[2], unpack(batch))
  for i, scope in ipairs(batch) do
    head[#head + 1] = scope
    head[#head + 1] = values[i] or ''
  end
end
return head
