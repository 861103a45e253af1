-- Takes a waiter's token out of the queue when it stops waiting.
-- KEYS[1] the lock key, KEYS[2] the queue key
-- ARGV[1] the owner token, ARGV[2] its queue entry
-- Returns {1, fencing token} if a release handed the lock to the token already, else {0, -1}.
redis.call('LREM', KEYS[2], 1, ARGV[2])
local fence = handed_fence(redis.call('GET', KEYS[1]), ARGV[1])
if fence then
  return {1, fence}
end
return {0, -1}
