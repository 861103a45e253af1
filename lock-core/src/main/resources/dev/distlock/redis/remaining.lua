-- Reads the remaining lease of the lock if it is held under the given token.
-- KEYS[1] the lock key
-- ARGV[1] the owner token
-- Returns the remaining lease in ms, -1 if the key never expires, -2 if not held under the token.
if owned_by(value_or_false(redis.pcall('GET', KEYS[1])), ARGV[1]) then
  return redis.call('PTTL', KEYS[1])
end
return -2
