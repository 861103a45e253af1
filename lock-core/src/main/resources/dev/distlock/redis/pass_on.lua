-- Releases the caller's hold and, in the same call, tries to acquire for the next of its process's callers, as
-- acquire.lua would: a hand-off within one process in one round trip. While no other process is queued (the mark is
-- '-'), the lock goes straight to the next token with a new fencing token (GET, TIME, SET); otherwise it is released
-- as release.lua does (to the first live waiter in the queue) and the next token tries as acquire.lua does, queueing
-- behind them: the queue's order holds across processes.
-- KEYS: the lock, queue and waiters keys (see common.lua)
-- ARGV[1] the releasing owner's token, ARGV[2] the fence retention in ms, ARGV[3] the releasing hold's fencing token
-- (as release.lua's ARGV[3]), ARGV[4] the next token, ARGV[5] its lease in ms, ARGV[6] and ARGV[7] (only if it
-- queues when the lock is busy) its waiter timeout in ms and its channel
-- Returns {what release.lua returns, what acquire.lua returns}; acquire.lua's errors as the call's error, but for a
-- Redis error while it queues the next token (busy, unqueued, then).
local function pass_on(keys, args)
  local lock, token, next_token, lease = keys[1], args[1], args[4], args[5]
  local value = read(lock)
  if owns(value, token) then
    local fence, mark, origin = string.match(value, '^%S+ (%d+) ([%-q]) (%d+) %-$')
    if mark == '-' then
      local now_ms, now_us, now_text = clock()
      local next = next_fence(tonumber(fence), now_us)
      if next then
        local text = next == now_us and now_text or fmt(next)
        redis.call('SET', lock, next_token .. ' ' .. text .. ' - ' .. origin .. ' -', 'PX', lease)
        return { { 1 }, { 1, next, now_ms } }
      end
    end
  end
  local freed = release(keys, token, args[2], args[3])
  -- the release ran: an error of the try that follows must not pass for its error. While the lock's slot migrates,
  -- queueing the next token can meet a queue key that is not here (the waiter just handed the lock took the last
  -- entry): the try is then answered busy, unqueued (its caller tries again at once, by itself)
  local ran, tried = pcall(acquire, keys, { next_token, lease, args[6], args[7] })
  if not ran then
    local now_ms = clock()
    return { freed, { 0, redis.call('PTTL', lock), now_ms } }
  end
  if tried.err then
    return tried
  end
  return { freed, tried }
end
