-- Takes the lock if nobody holds it and issues a fencing token.
-- KEYS[1] the lock key, KEYS[2] the fence key, KEYS[3] the waiters key (all in one hash slot)
-- ARGV[1] the owner token of this acquisition
-- ARGV[2] the lease in milliseconds
-- ARGV[3] how long the fence key outlives its last use, in milliseconds
-- ARGV[4] 0, or how long (ms, on top of the holder's lease) to mark that a waiter wants a release notice
-- Returns {1, fencing token} when acquired, else {0, the holder's remaining lease in ms (-1: no expiry)}.
--
-- The fencing token is max(last token + 1, server time in microseconds): it grows while the fence key
-- lives, and the clock keeps it growing after the fence key expired or the data was lost.
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local now = redis.call('TIME')
  local fence = tonumber(now[1]) * 1000000 + tonumber(now[2])
  local last = tonumber(redis.call('GET', KEYS[2]))
  if last and last >= fence then
    fence = last + 1
  end
  redis.call('SET', KEYS[2], string.format('%d', fence), 'PX', ARGV[3])
  return {1, fence}
end
local ttl = redis.call('PTTL', KEYS[1])
local mark = tonumber(ARGV[4])
if mark > 0 then
  redis.call('SET', KEYS[3], '1', 'PX', math.max(ttl, 0) + mark)
end
return {0, ttl}
