-- What a lock is now, for an operator: who holds it, with which fencing token and lease left, and how many waiters
-- are queued with live entries. Changes nothing.
-- KEYS: the lock, queue and waiters keys (see common.lua)
-- Returns {owner token or '', fencing token (0 if unknown), PTTL (-2: free, -1: no expiry), live waiters}.
local function inspect(keys)
  local lock = keys[1]
  local now_ms = clock()
  local waiting = 0
  local entries = redis.call('HGETALL', keys[3])
  for i = 2, #entries, 2 do
    local deadline = tonumber(string.match(entries[i], '^(%d+)'))
    if deadline and deadline >= now_ms then
      waiting = waiting + 1
    end
  end
  local value = read(lock)
  local owner, fence = parse(value)
  if not value or owner == FREE then
    return { '', 0, -2, waiting }
  end
  -- a value that is no lock's: its first word, with no token
  return { owner or string.match(value, '^(%S*)'), fence or 0, redis.call('PTTL', lock), waiting }
end
