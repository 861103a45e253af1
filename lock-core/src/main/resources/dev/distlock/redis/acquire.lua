-- Takes the lock if it is free, or finds that a release handed it to this token; otherwise, if asked,
-- queues the token so that the holder's release hands the lock to it.
-- KEYS[1] the lock key, KEYS[2] the fence key, KEYS[3] the queue key (all in one hash slot)
-- ARGV[1] the owner token of this acquisition
-- ARGV[2] the lease in milliseconds
-- ARGV[3] how long a new fence key lives, in milliseconds
-- ARGV[4] 'none': do not queue; 'join': queue the token; 'stay': queued before, queue again only if the
--         entry is gone (the queue expired), and leave the queue if the lock is taken
-- ARGV[5] how long the queue outlives its last waiter's visit, in milliseconds
-- ARGV[6] the channel where the caller's process hears that the lock was handed to it
-- Returns {1, fencing token} when the caller holds the lock, else {0, -1}.
--
-- Uncontended this runs SET and INCR: with the release's GET and DEL, six commands per lock and unlock.
local held = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2], 'GET')
-- a queue entry: '<token> <lease in milliseconds> <the waiter's channel>'
local function entry()
  return ARGV[1] .. ' ' .. ARGV[2] .. ' ' .. ARGV[6]
end
if not held then
  if ARGV[4] == 'stay' then
    -- the lock expired or was deleted while queued: the entry must not get a second hand-off
    redis.call('LREM', KEYS[3], 1, entry())
  end
  return {1, next_fence(KEYS[2], ARGV[3])}
end
local fence = handed_fence(held, ARGV[1])
if fence then
  return {1, fence}
end
if ARGV[4] ~= 'none' then
  if not string.find(held, ' ', 1, true) then
    redis.call('APPEND', KEYS[1], ' ')
  end
  if ARGV[4] == 'join' or not redis.call('LPOS', KEYS[3], entry()) then
    redis.call('RPUSH', KEYS[3], entry())
  end
  redis.call('PEXPIRE', KEYS[3], ARGV[5])
end
return {0, -1}
