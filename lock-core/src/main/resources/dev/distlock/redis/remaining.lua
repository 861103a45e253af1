-- Reads the remaining lease of the lock if it is held under the given token.
-- KEYS[1] the lock (see common.lua)
-- ARGV[1] the owner token
-- Returns the remaining lease in ms, -1 if the key never expires, -2 if not held under the token.
local function remaining(keys, args)
  if owns(read(keys[1]), args[1]) then
    return redis.call('PTTL', keys[1])
  end
  return -2
end
