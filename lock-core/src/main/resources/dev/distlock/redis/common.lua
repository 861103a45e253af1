-- Functions shared by the lock scripts; LockScripts puts this text in front of each of them.
--
-- The lock key's value is the owner's token, alone while nobody waits. A waiter marks it by appending a
-- space, so the owner's release looks in the queue; a release that hands the lock over writes
-- '<token> <fencing token>', so the new owner can read its fencing token if it missed the notice.

-- Whether the lock value belongs to the token.
local function owned_by(value, token)
  return value == token or (value and string.sub(value, 1, #token + 1) == token .. ' ')
end

-- The fencing token a release handed to the token with the lock, or nil.
local function handed_fence(value, token)
  if value and string.sub(value, 1, #token + 1) == token .. ' ' then
    return tonumber(string.sub(value, #token + 2))
  end
  return nil
end

-- The next fencing token of the lock: one more than the last one while the fence key lives. When the key
-- is new, expired or lost, the count restarts from the server clock in microseconds, which is above every
-- token issued before (one per microsecond at most) unless the clock was set back.
local function next_fence(fence_key, retention_millis)
  local fence = redis.call('INCR', fence_key)
  if fence == 1 then
    local now = redis.call('TIME')
    fence = tonumber(now[1]) * 1000000 + tonumber(now[2])
    redis.call('SET', fence_key, string.format('%d', fence), 'PX', retention_millis)
  end
  return fence
end

