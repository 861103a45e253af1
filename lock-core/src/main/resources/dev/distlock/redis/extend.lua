-- Sets the remaining lease of the lock if it is held under the given token: exactly (extend), or only longer
-- (a renewal, or the confirmation of a hand-off's claim lease), so that a renewal that reaches Redis after an
-- extend never cuts back the lease the extend set.
-- KEYS[1] the lock key
-- ARGV[1] the owner token, ARGV[2] the new lease in milliseconds, ARGV[3] '1' to only lengthen, '0' to set
-- Returns 1 if the lock is held under the token (and its lease is now at least, or exactly, ARGV[2]), 0 if it
-- was not held under the token (or the key is not a lock).
if not owned_by(value_or_false(redis.pcall('GET', KEYS[1])), ARGV[1]) then
  return 0
end
if ARGV[3] ~= '1' then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
if MODERN then
  redis.call('PEXPIRE', KEYS[1], ARGV[2], 'GT')
else
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl >= 0 and ttl < tonumber(ARGV[2]) then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
  end
end
return 1
