-- Functions shared by the lock scripts; LockScripts puts this text in front of each of them.
--
-- The keys of a lock, all in one hash slot:
--   KEYS[1] the lock. Its value is '<token>' while nobody waits, '<token> ' once a waiter queued (so the
--           owner's release looks in the queue), and '<token> <fencing token> <previous owner>' after a
--           hand-off (the new owner reads its fencing token there if it missed the notice, and a repeated
--           release of the previous owner sees that it took effect).
--   KEYS[2] the fence: '<last fencing token> <its owner token>', with ' q' at the end while waiters may be
--           queued (so whoever finds the lock free looks in the queue before taking it). It lives
--           fence-retention after its last use.
--   KEYS[3] the queue: waiter tokens in arrival order.
--   KEYS[4] the waiters: token -> '<deadline ms> <lease ms> <timeout ms> <channel>'. An entry is live until
--           its deadline (server clock), which each try of its waiter moves to now + timeout.
--   KEYS[5] (release and abandon only) the last released value of the lock: a release renames the lock to it
--           instead of deleting it, so it lives no longer than the lease would have (nor than the fence), and a
--           release that a client runs again after a reconnect finds the trace of the first run.
-- Redis 6.x lacks SET ... NX ... GET (7.0) and SET ... GET (6.2): the scripts fall back to separate commands.

local MODERN = (redis.REDIS_VERSION_NUM or 0) >= 0x070000
-- The largest fencing token: Lua counts in doubles, exact up to 2^53 - 1. A fence at it is exhausted: no larger
-- token can be issued. One beyond 2^53 (which older versions could reach) is garbage: tokens are about the clock in
-- microseconds, far below it.
local MAX_FENCE = 2 ^ 53 - 1

local function fmt(number)
  return string.format('%d', number)
end

-- The server clock in milliseconds and in microseconds.
local function clock()
  local t = redis.call('TIME')
  local seconds, micros = tonumber(t[1]), tonumber(t[2])
  return seconds * 1000 + math.floor(micros / 1000), seconds * 1000000 + micros
end

-- A reply without its error: false for an error reply (a key of another type).
local function value_or_false(reply)
  if type(reply) == 'table' and reply.err then
    return false
  end
  return reply
end

-- Whether the lock value belongs to the token.
local function owned_by(value, token)
  return value == token or (value and string.sub(value, 1, #token + 1) == token .. ' ')
end

-- The fencing token a hand-off wrote for the token into the lock value, or nil.
local function handed_fence(value, token)
  if value and string.sub(value, 1, #token + 1) == token .. ' ' then
    return tonumber(string.match(value, '^%S+ (%d+)'))
  end
  return nil
end

-- The owner the lock was handed over from, or nil.
local function previous_owner(value)
  return value and string.match(value, '^%S+ %d+ (%S+)$')
end

-- The fence value's last fencing token (0 if none or garbage), owner token, and whether waiters may be queued.
local function parse_fence(value)
  if not value then
    return 0, nil, false
  end
  local last = tonumber(string.match(value, '^(%-?%d+)'))
  if not last or last < 0 or last > MAX_FENCE + 1 then
    return 0, nil, true
  end
  return last, string.match(value, '^%S+ (%S+)'), string.sub(value, -2) == ' q'
end

-- The error of a lock whose fencing tokens are exhausted (see MAX_FENCE): tokens must grow, so none is issued.
local function fence_exhausted()
  return redis.error_reply('ERR distlock: the fencing tokens of ' .. KEYS[1] .. ' are exhausted: they reached '
      .. fmt(MAX_FENCE) .. ' (2^53 - 1), the largest a script counts to exactly, and every new one must be larger '
      .. '(' .. KEYS[2] .. ' holds the last one)')
end

-- Issues the next fencing token to owner: larger than the last one kept in the fence and at least the server
-- clock in microseconds. So tokens grow while the fence lives, and also after it was lost (expired, evicted,
-- not yet replicated to a promoted replica, garbage) as long as the clock is ahead of the tokens issued
-- before. Writes the fence with the suffix ('' or ' q'); returns the token and whether the fence said that
-- waiters may be queued, or nil if the tokens are exhausted (the fence is then left as it was). One command on
-- 7.0 unless the clock is behind the last token.
local function issue_fence(owner, suffix, now_us, retention)
  local value = fmt(now_us) .. ' ' .. owner .. suffix
  local old
  if MODERN then
    old = redis.pcall('SET', KEYS[2], value, 'PX', retention, 'GET')
    if type(old) == 'table' and old.err then
      -- the fence key holds another type: replace it
      old = false
      redis.call('SET', KEYS[2], value, 'PX', retention)
    end
  else
    old = value_or_false(redis.pcall('GET', KEYS[2]))
    redis.call('SET', KEYS[2], value, 'PX', retention)
  end
  local last, _, queued = parse_fence(old)
  local fence = now_us
  if last >= MAX_FENCE then
    redis.call('SET', KEYS[2], old, 'PX', retention)
    return nil, queued
  end
  if last >= now_us then
    fence = last + 1
    redis.call('SET', KEYS[2], fmt(fence) .. ' ' .. owner .. suffix, 'PX', retention)
  end
  return fence, queued
end

-- The fencing token of a hold of the token found in the lock value: from a hand-off, from the fence if it
-- names the token (a repeated try), else a new one (nil if the tokens are exhausted).
local function own_fence(held, token, now_us, retention)
  local fence = handed_fence(held, token)
  if fence then
    return fence
  end
  local last, owner = parse_fence(value_or_false(redis.pcall('GET', KEYS[2])))
  if owner == token then
    return last
  end
  return (issue_fence(token, '', now_us, retention))
end

-- Takes the first waiter whose entry is live out of the queue, dropping dead entries before it; nil if none.
local function pop_live_waiter(now_ms)
  while true do
    local token = redis.call('LPOP', KEYS[3])
    if not token then
      return nil
    end
    local entry = redis.call('HGET', KEYS[4], token)
    if entry then
      redis.call('HDEL', KEYS[4], token)
      local deadline, lease, timeout, channel = string.match(entry, '^(%d+) (%d+) (%d+) (.*)$')
      if deadline and tonumber(deadline) >= now_ms then
        return { token = token, lease = tonumber(lease), timeout = tonumber(timeout), channel = channel }
      end
    end
  end
end

-- Takes the token out of the queue.
local function leave_queue(token)
  if redis.call('HDEL', KEYS[4], token) == 1 then
    redis.call('LREM', KEYS[3], 0, token)
  end
end

-- Queues the token, or moves its entry's deadline; keeps the queue alive as long as its longest-lived entry,
-- so waiters with different timeouts never cut each other's entries short. Returns whether it was new.
local function enqueue(token, lease, timeout, channel, now_ms)
  local entry = fmt(now_ms + timeout) .. ' ' .. lease .. ' ' .. timeout .. ' ' .. channel
  local new = redis.call('HSET', KEYS[4], token, entry) == 1
  if new then
    redis.call('RPUSH', KEYS[3], token)
  end
  local ttl = math.min(redis.call('PTTL', KEYS[3]), redis.call('PTTL', KEYS[4]))
  if ttl < tonumber(timeout) then
    redis.call('PEXPIRE', KEYS[3], timeout)
    redis.call('PEXPIRE', KEYS[4], timeout)
  end
  return new
end

-- Marks the fence so that whoever finds the lock free looks in the queue first.
local function flag_queue(retention)
  local value = value_or_false(redis.pcall('GET', KEYS[2]))
  if not value then
    redis.call('SET', KEYS[2], '0 - q', 'PX', retention)
  elseif string.sub(value, -2) ~= ' q' then
    redis.call('APPEND', KEYS[2], ' q')
  end
end

-- Hands the lock to a waiter: its token, fencing token and previous owner in the lock value, with the
-- waiter's claim lease (the waiter extends it to its full lease at once), and a notice on its channel:
-- '<token> <fencing token> <server time ms> <claim ms>'. A refused PUBLISH (e.g. an ACL without the
-- channel) does not undo the hand-off: the waiter finds it at its next poll. Returns Redis's error, or nil.
local function hand_over(waiter, fence, previous, now_ms)
  local claim = math.min(waiter.lease, waiter.timeout)
  redis.call('SET', KEYS[1], waiter.token .. ' ' .. fmt(fence) .. ' ' .. (previous or '-'), 'PX', claim)
  local notice = waiter.token .. ' ' .. fmt(fence) .. ' ' .. fmt(now_ms) .. ' ' .. fmt(claim)
  local published = redis.pcall('PUBLISH', waiter.channel, notice)
  if type(published) == 'table' and published.err then
    return published.err
  end
  return nil
end

-- Renames the lock to its trace, which lives as long as the lease would have, and no longer than the fence.
local function leave_trace(retention)
  redis.call('RENAME', KEYS[1], KEYS[5])
  if MODERN then
    redis.call('PEXPIRE', KEYS[5], retention, 'LT')
  else
    local ttl = redis.call('PTTL', KEYS[5])
    if ttl < 0 or ttl > tonumber(retention) then
      redis.call('PEXPIRE', KEYS[5], retention)
    end
  end
end

-- Releases the lock if the token holds it: hands it to the first live waiter, or renames it to its trace.
-- Returns {1} or {1, PUBLISH error} if released (also when a release run again finds that its first run
-- took effect, whoever holds the lock since), {0} if the lock is not the token's.
local function release(token, retention)
  local held = value_or_false(redis.pcall('GET', KEYS[1]))
  if held == token then
    leave_trace(retention)
    return { 1 }
  end
  if not owned_by(held, token) then
    -- run again? the first run handed the lock over from this token, or left its trace, or the trace is of the
    -- owner it handed the lock to
    local trace = value_or_false(redis.pcall('GET', KEYS[5]))
    local ran = previous_owner(held) == token or owned_by(trace, token) or previous_owner(trace) == token
    return { ran and 1 or 0 }
  end
  local now_ms, now_us = clock()
  local waiter = pop_live_waiter(now_ms)
  if not waiter then
    leave_trace(retention)
    return { 1 }
  end
  local fence = issue_fence(waiter.token, ' q', now_us, retention)
  if not fence then
    -- no token to hand over with: released; the waiter finds out at its next try
    leave_trace(retention)
    return { 1 }
  end
  local refused = hand_over(waiter, fence, token, now_ms)
  if refused then
    return { 1, refused }
  end
  return { 1 }
end

