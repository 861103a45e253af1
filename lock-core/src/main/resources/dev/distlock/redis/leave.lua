-- Takes a waiter's token out of the queue when it stops waiting, and tells whether the lock was handed to it
-- meanwhile; if so it keeps it, extended to its lease. A semaphore's waiter (see common.lua) keeps the permits
-- handed to it the same way.
-- KEYS: the lock, queue and waiters keys (see common.lua)
-- ARGV[1] the owner token, ARGV[2] its lease in milliseconds
-- Returns {1, fencing token, server ms} if the lock is the token's, else {0, -1, server ms}.
local function leave(keys, args)
  local lock, token = keys[1], args[1]
  local now_ms = clock()
  leave_queue(keys, token)
  local value = read(lock)
  if value == false and is_permits(lock) then
    local _, _, fence = permit_holder(lock, token, now_ms)
    if fence then
      set_permits_lease(lock, token, tonumber(args[2]), false, now_ms)
      return { 1, fence, now_ms }
    end
    return { 0, -1, now_ms }
  end
  local owner, fence = parse(value)
  if owner == token then
    redis.call('PEXPIRE', lock, args[2])
    return { 1, fence, now_ms }
  end
  return { 0, -1, now_ms }
end
