-- Takes the lock if it is free and no live waiter is queued before the caller, or finds that it was handed to the
-- caller (or taken by an earlier run of this very try) and extends it to the caller's lease; otherwise, if asked,
-- queues the caller or moves its entry's deadline.
-- KEYS: the lock, queue and waiters keys (see common.lua)
-- ARGV[1] the owner token of this acquisition
-- ARGV[2] the lease in milliseconds
-- ARGV[3] (only to queue the caller if the lock is busy) the caller's waiter timeout in milliseconds: its entry
--         lives this long after this try, and a hand-off to it has this claim lease
-- ARGV[4] (with ARGV[3]) the channel where the caller's process hears of hand-offs
-- Returns {1, fencing token, server ms} when the caller holds the lock, else {0, the holder's remaining lease in
-- ms (-1: no expiry), server ms}.
--
-- Uncontended on Redis 7 this runs TIME and SET NX PX GET (the lock was never taken, or its last value is gone),
-- or TIME, SET NX PX GET and SET (the lock was freed before and keeps its last token).
local function acquire(keys, args)
  local lock, token, lease, timeout, channel = keys[1], args[1], args[2], args[3], args[4]
  local now_ms, now_us, now_text = clock()
  local taken = token .. ' ' .. now_text .. ' - ' .. now_text .. ' -'
  local value
  if MODERN then
    value = redis.pcall('SET', lock, taken, 'NX', 'PX', lease, 'GET')
  elseif redis.call('SET', lock, taken, 'NX', 'PX', lease) then
    value = false
  else
    value = redis.pcall('GET', lock)
  end
  if type(value) == 'table' and value.err then
    if string.find(value.err, 'WRONGTYPE', 1, true) and is_permits(lock) then
      if live_permits(lock, now_ms) > 0 or first_permit_waiter(keys, now_ms) then
        return redis.error_reply('ERR distlock: lock ' .. lock .. ' cannot be taken: the name is a semaphore now, '
            .. 'whose permits are held or waited for')
      end
      -- a semaphore nobody uses: the lock goes on from its last token
      local last = redis.call('HGET', lock, 'fence') or now_text
      redis.call('DEL', lock)
      redis.call('SET', lock, '~ ' .. last .. ' - ' .. last .. ' -', 'PX', lease)
      return acquire(keys, args)
    end
    if string.find(value.err, 'WRONGTYPE', 1, true) then
      return redis.error_reply('WRONGTYPE the lock key ' .. lock .. ' holds a ' .. redis.call('TYPE', lock).ok
          .. ', not a distlock lock: something else uses this key')
    end
    return redis.error_reply(value.err)
  end

  if not value then
    -- taken, with the clock for a token as none was kept (a new life of the key); unless a lease ran out with
    -- waiters queued: the first live one gets it
    if redis.call('EXISTS', keys[2]) == 1 then
      local waiter = pop_live_waiter(keys, now_ms)
      if waiter and waiter.token ~= token then
        hand_over(lock, waiter, now_us, now_text, now_ms)
        if timeout then
          enqueue(keys, token, lease, timeout, channel, now_ms)
        end
        return { 0, math.min(waiter.lease, waiter.timeout), now_ms }
      end
      if redis.call('EXISTS', keys[2]) == 1 then
        redis.call('SET', lock, token .. ' ' .. now_text .. ' q ' .. now_text .. ' -', 'KEEPTTL')
      end
    end
    return { 1, now_us, now_ms }
  end

  local last, origin = string.match(value, '^~ (%d+) [%-q] (%d+) %-$')
  local owner, fence, mark
  if last then
    last = tonumber(last)
  else
    -- held, freed by an older script, or no lock's
    owner, fence, mark, origin = parse(value)
    if owner == FREE then
      last, origin = fence, fmt(origin)
    end
  end
  if last and last <= MAX_FENCE then
    -- freed, with its last token kept: the next one, in the same life
    local next = next_fence(last, now_us)
    if not next then
      return fence_exhausted(lock)
    end
    local text = next == now_us and now_text or fmt(next)
    redis.call('SET', lock, token .. ' ' .. text .. ' - ' .. origin .. ' -', 'PX', lease)
    return { 1, next, now_ms }
  end
  if owner == token then
    -- a repeated try, or the lock was handed to the caller: its own now, for its full lease
    redis.call('PEXPIRE', lock, lease)
    return { 1, fence, now_ms }
  end
  -- busy: another owner's, or a value that is no lock's (nobody's to take)
  if timeout and enqueue(keys, token, lease, timeout, channel, now_ms) and owner and mark ~= 'q' then
    -- a new entry: the owner's release must look in the queue
    redis.call('SET', lock, compose(owner, fence, 'q', origin), 'KEEPTTL')
  end
  return { 0, redis.call('PTTL', lock), now_ms }
end
