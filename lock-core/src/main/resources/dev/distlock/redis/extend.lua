-- Sets the remaining lease of the lock if it is held under the given token: exactly (extend), or only longer (a
-- renewal, or the confirmation of a hand-off's claim lease), so that a renewal that reaches Redis after an extend
-- never cuts back the lease the extend set.
-- KEYS[1] the lock (see common.lua)
-- ARGV[1] the owner token, ARGV[2] the new lease in milliseconds, ARGV[3] '1' to only lengthen, '0' to set
-- A semaphore's holder (see common.lua) has its own lease set the same way.
-- Returns 1 if the lock is held under the token (and its lease is now at least, or exactly, ARGV[2]), 0 if it was
-- not held under the token (or the key is not a lock).
local function extend(keys, args)
  local lock = keys[1]
  local value = read(lock)
  if not owns(value, args[1]) then
    if value == false and is_permits(lock) then
      return set_permits_lease(lock, args[1], tonumber(args[2]), args[3] == '1', clock())
    end
    return 0
  end
  if args[3] ~= '1' then
    return redis.call('PEXPIRE', lock, args[2])
  end
  lengthen(lock, args[2], false)
  return 1
end
