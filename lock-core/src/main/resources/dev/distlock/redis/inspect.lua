-- What a lock is now, for an operator: who holds it, with which fencing token and lease left, and how many
-- waiters are queued with live entries. Changes nothing.
-- KEYS: the lock, fence, queue and waiters keys (see common.lua)
-- Returns {owner token or '', fencing token (0 if unknown), PTTL (-2: free, -1: no expiry), live waiters}.
local now_ms = clock()
local waiting = 0
local entries = redis.call('HGETALL', KEYS[4])
for i = 2, #entries, 2 do
  local deadline = tonumber(string.match(entries[i], '^(%d+)'))
  if deadline and deadline >= now_ms then
    waiting = waiting + 1
  end
end
local held = value_or_false(redis.pcall('GET', KEYS[1]))
if not held then
  return { '', 0, -2, waiting }
end
local token = string.match(held, '^(%S+)')
local fence = handed_fence(held, token)
if not fence then
  local last, owner = parse_fence(value_or_false(redis.pcall('GET', KEYS[2])))
  fence = owner == token and last or 0
end
return { token, fence, redis.call('PTTL', KEYS[1]), waiting }
