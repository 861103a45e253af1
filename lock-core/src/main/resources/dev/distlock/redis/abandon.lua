-- Clean-up of an acquisition whose outcome is unknown: takes its token out of the queue and releases the lock if
-- the token holds it (handing it to the next live waiter).
-- KEYS: the lock, queue and waiters keys (see common.lua)
-- ARGV[1] the owner token, ARGV[2] the fence retention in ms
-- Returns what release.lua returns; without the hold's fencing token, which an acquisition in doubt does not know, a
-- clean-up run again after another owner took the lock answers {0} (nobody reads an abandon's answer).
local function abandon(keys, args)
  leave_queue(keys, args[1])
  return release(keys, args[1], args[2])
end
