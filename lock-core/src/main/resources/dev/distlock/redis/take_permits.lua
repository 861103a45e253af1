-- Takes permits of a semaphore for the caller if they fit beside the live holders' and no live waiter is queued
-- before the caller, or finds that they were handed to the caller (or taken by an earlier run of this very try) and
-- extends them to the caller's lease; otherwise, if asked, queues the caller or moves its entry's deadline.
-- KEYS: the semaphore, queue and waiters keys (see common.lua)
-- ARGV[1] the owner token of this acquisition, ARGV[2] the lease in milliseconds, ARGV[3] how many permits,
-- ARGV[4] how many permits the semaphore has, as the caller's process declares it
-- ARGV[5] (only to queue the caller if the permits are taken) the caller's waiter timeout in milliseconds: its entry
--         lives this long after this try, and a hand-off to it has this claim lease
-- ARGV[6] (with ARGV[5]) the channel where the caller's process hears of hand-offs
-- Returns {1, fencing token, server ms} when the caller holds the permits, else {0, the soonest of the holders'
-- remaining leases in ms (-1: none), server ms}; an error if the semaphore is in use with another number of permits,
-- or the name is a lock that is held.
local function take_permits(keys, args)
  local lock, token, lease, count, limit = keys[1], args[1], tonumber(args[2]), tonumber(args[3]), tonumber(args[4])
  local now_ms, now_us = clock()
  local kind = redis.call('TYPE', lock).ok
  if kind == 'string' then
    local owner, fence = parse(read(lock))
    if owner ~= FREE or redis.call('EXISTS', keys[2]) == 1 then
      return redis.error_reply('ERR distlock: semaphore ' .. lock .. ' cannot be taken: the name is a lock now, '
          .. (owner and 'held or waited for' or 'or a key that something else wrote'))
    end
    -- a freed lock that keeps its last token: the semaphore goes on from it
    redis.call('DEL', lock)
    redis.call('HSET', lock, 'fence', fmt(fence), 'origin', '', 'limit', fmt(limit))
  elseif kind == 'none' then
    redis.call('HSET', lock, 'fence', '0', 'origin', '', 'limit', fmt(limit))
  elseif kind ~= 'hash' or not permit_marks(lock) then
    return redis.error_reply('WRONGTYPE the semaphore key ' .. lock .. ' holds a ' .. kind
        .. ', not a distlock semaphore: something else uses this key')
  end
  local used, soonest = live_permits(lock, now_ms)
  local head = first_permit_waiter(keys, now_ms)
  local declared = tonumber(redis.call('HGET', lock, 'limit'))
  if declared ~= limit then
    if used > 0 or (head and head.token ~= token) then
      return redis.error_reply('ERR distlock: semaphore ' .. lock .. ' has ' .. fmt(declared) .. ' permits, declared '
          .. 'by the processes that hold or wait for them now, but this registry declares ' .. fmt(limit)
          .. ': every process must declare the same number of permits for a name')
    end
    redis.call('HSET', lock, 'limit', fmt(limit))
  end
  local ends, _, fence = permit_holder(lock, token, now_ms)
  if ends then
    -- handed to the caller, or a repeated try: its own now, for its full lease
    leave_queue(keys, token)
    set_permits_lease(lock, token, lease, false, now_ms)
    return { 1, fence, now_ms }
  end
  if (not head or head.token == token) and used + count <= limit then
    local granted = grant_permits(lock, token, count, lease, now_ms, now_us)
    if not granted then
      return fence_exhausted(lock)
    end
    leave_queue(keys, token)
    return { 1, granted, now_ms }
  end
  local timeout, channel = args[5], args[6]
  if timeout then
    local entry = fmt(now_ms + timeout) .. ' ' .. fmt(lease) .. ' ' .. timeout .. ' ' .. fmt(count) .. ' ' .. channel
    if redis.call('HSET', keys[3], token, entry) == 1 then
      redis.call('RPUSH', keys[2], token)
    end
    keep(keys[2], timeout)
    keep(keys[3], timeout)
  end
  keep(lock, tonumber(timeout) or lease) -- a semaphore made by this very try, busy for a waiter queued before it
  return { 0, soonest, now_ms }
end
