-- Takes a waiter's token out of the queue when it stops waiting, and tells whether the lock was handed to
-- it meanwhile; if so it keeps it, extended to its lease.
-- KEYS: the lock, fence, queue and waiters keys (see common.lua)
-- ARGV[1] the owner token, ARGV[2] its lease in milliseconds, ARGV[3] the fence's lifetime
-- Returns {1, fencing token, server ms} if the lock is the token's, else {0, -1, server ms}.
local now_ms, now_us = clock()
leave_queue(ARGV[1])
local held = value_or_false(redis.pcall('GET', KEYS[1]))
if owned_by(held, ARGV[1]) then
  local fence = own_fence(held, ARGV[1], now_us, ARGV[3])
  if not fence then
    return fence_exhausted()
  end
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return { 1, fence, now_ms }
end
return { 0, -1, now_ms }
