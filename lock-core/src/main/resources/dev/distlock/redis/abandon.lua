-- Clean-up of an acquisition whose outcome is unknown: takes its token out of the queue and releases the
-- lock if the token holds it (handing it to the next live waiter).
-- KEYS: the lock, fence, queue, waiters and released keys (see common.lua)
-- ARGV[1] the owner token, ARGV[2] the fence's lifetime
-- Returns what release.lua returns.
leave_queue(ARGV[1])
return release(ARGV[1], ARGV[2])
