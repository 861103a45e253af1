-- Keeps only some of the permits the token holds, its lease and fencing token unchanged, and hands the permits it gives
-- up to the waiters at the head of the queue that fit, as a release does: how the writer of a read-write lock (every
-- permit) becomes one of its readers without a writer getting in between. Run again, it changes nothing.
-- KEYS: the lock, queue and waiters keys (see common.lua)
-- ARGV[1] the owner token, ARGV[2] how many of its permits it keeps
-- Returns {1} if the token holds permits of the name now (or {1, error} if a hand-off notice was refused), {0} if not.
local function keep_permits(keys, args)
  local lock = keys[1]
  if not is_permits(lock) then
    return { 0 }
  end
  local now_ms, now_us = clock()
  local used = live_permits(lock, now_ms)
  local ends, rest, fence = permit_holder(lock, args[1], now_ms)
  if not ends then
    return { 0 }
  end
  local held, kept = tonumber(string.match(rest, '^(%d+)')), tonumber(args[2])
  if kept >= held then
    return { 1 }
  end
  redis.call('HSET', lock, 'o:' .. args[1], fmt(ends) .. ' ' .. kept .. ' ' .. fmt(fence))
  local refused = hand_on_permits(keys, used - held + kept, now_ms, now_us)
  return refused and { 1, refused } or { 1 }
end
