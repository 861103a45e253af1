-- Takes a waiter's token out of the queue when it stops waiting, and tells whether the lock was handed to it
-- meanwhile; if so it keeps it, extended to its lease.
-- KEYS: the lock, queue and waiters keys (see common.lua)
-- ARGV[1] the owner token, ARGV[2] its lease in milliseconds
-- Returns {1, fencing token, server ms} if the lock is the token's, else {0, -1, server ms}.
local function leave(keys, args)
  local lock, token = keys[1], args[1]
  local now_ms = clock()
  leave_queue(keys, token)
  local owner, fence = parse(read(lock))
  if owner == token then
    redis.call('PEXPIRE', lock, args[2])
    return { 1, fence, now_ms }
  end
  return { 0, -1, now_ms }
end
