-- Reads the remaining lease of the lock if it is held under the given token (or of a semaphore's holder).
-- KEYS[1] the lock (see common.lua)
-- ARGV[1] the owner token
-- Returns the remaining lease in ms, -1 if the key never expires, -2 if not held under the token.
local function remaining(keys, args)
  local value = read(keys[1])
  if owns(value, args[1]) then
    return redis.call('PTTL', keys[1])
  end
  if value == false and is_permits(keys[1]) then
    local now_ms = clock()
    local ends = permit_holder(keys[1], args[1], now_ms)
    return ends and ends - now_ms or -2
  end
  return -2
end
