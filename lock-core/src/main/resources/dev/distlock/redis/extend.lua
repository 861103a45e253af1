-- Sets the remaining lease of the lock if it is held under the given token (renewal, extend, and the
-- confirmation of a hand-off's claim lease).
-- KEYS[1] the lock key
-- ARGV[1] the owner token, ARGV[2] the new lease in milliseconds
-- Returns 1 if extended, 0 if the lock was not held under the token (or the key is not a lock).
if owned_by(value_or_false(redis.pcall('GET', KEYS[1])), ARGV[1]) then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
