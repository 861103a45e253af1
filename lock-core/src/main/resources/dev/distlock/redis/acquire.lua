-- Takes the lock if it is free and no live waiter is queued before the caller, or finds that it was handed
-- to the caller (or taken by an earlier run of this very try) and extends it to the caller's lease;
-- otherwise, if asked, queues the caller or moves its entry's deadline.
-- KEYS: the lock, fence, queue and waiters keys (see common.lua)
-- ARGV[1] the owner token of this acquisition
-- ARGV[2] the lease in milliseconds
-- ARGV[3] how long the fence lives after its last use, in milliseconds
-- ARGV[4] '1' to queue the caller if the lock is busy, '0' not to
-- ARGV[5] the caller's waiter timeout in milliseconds: its entry lives this long after this try, and a
--         hand-off to it has this claim lease
-- ARGV[6] the channel where the caller's process hears of hand-offs
-- Returns {1, fencing token, server ms} when the caller holds the lock, else {0, the holder's remaining
-- lease in ms (-1: no expiry), server ms}.
--
-- Uncontended on Redis 7 this runs TIME, SET NX GET and SET GET of the fence: with the release's GET, RENAME and
-- PEXPIRE LT of its trace, eight commands per lock and unlock, counting the two EVALSHA.
local token, lease, retention = ARGV[1], ARGV[2], ARGV[3]
local now_ms, now_us = clock()

local held
if MODERN then
  held = redis.pcall('SET', KEYS[1], token, 'NX', 'PX', lease, 'GET')
elseif redis.call('SET', KEYS[1], token, 'NX', 'PX', lease) then
  held = false
else
  held = redis.pcall('GET', KEYS[1])
end
if type(held) == 'table' and held.err then
  if string.find(held.err, 'WRONGTYPE', 1, true) then
    return redis.error_reply('WRONGTYPE the lock key ' .. KEYS[1] .. ' holds a ' .. redis.call('TYPE', KEYS[1]).ok
        .. ', not a distlock lock: something else uses this key')
  end
  return redis.error_reply(held.err)
end

if not held then
  local fence, queued = issue_fence(token, '', now_us, retention)
  if not fence then
    redis.call('DEL', KEYS[1])
    return fence_exhausted()
  end
  if queued then
    -- the lock was free, but a lease may have run out with waiters queued: the first live one gets it
    local waiter = pop_live_waiter(now_ms)
    if waiter and waiter.token ~= token then
      hand_over(waiter, fence, nil, now_ms)
      redis.call('SET', KEYS[2], fmt(fence) .. ' ' .. waiter.token .. ' q', 'PX', retention)
      if ARGV[4] == '1' then
        enqueue(token, lease, ARGV[5], ARGV[6], now_ms)
      end
      return { 0, math.min(waiter.lease, waiter.timeout), now_ms }
    end
    leave_queue(token)
    if redis.call('EXISTS', KEYS[3]) == 1 then
      redis.call('APPEND', KEYS[1], ' ')
      redis.call('SET', KEYS[2], fmt(fence) .. ' ' .. token .. ' q', 'PX', retention)
    end
  end
  return { 1, fence, now_ms }
end

if owned_by(held, token) then
  local fence = own_fence(held, token, now_us, retention)
  if not fence then
    return fence_exhausted()
  end
  leave_queue(token)
  redis.call('PEXPIRE', KEYS[1], lease)
  return { 1, fence, now_ms }
end

if ARGV[4] == '1' and enqueue(token, lease, ARGV[5], ARGV[6], now_ms) then
  -- a new entry: the owner's release must look in the queue, and so must whoever finds the lock free
  if not string.find(held, ' ', 1, true) then
    redis.call('APPEND', KEYS[1], ' ')
  end
  flag_queue(retention)
end
return { 0, redis.call('PTTL', KEYS[1]), now_ms }
