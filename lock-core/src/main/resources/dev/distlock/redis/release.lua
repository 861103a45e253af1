-- Releases the lock if it is held under the given token; never touches another owner's key. If waiters
-- are queued, hands the lock to the first of them instead, with a new fencing token, and tells it on the
-- channel its entry names.
-- KEYS[1] the lock key, KEYS[2] the queue key, KEYS[3] the fence key
-- ARGV[1] the owner token, ARGV[2] the fence key's lifetime
-- Returns 1 if released, 0 if the lock was not held under the token (expired, deleted or taken over).
local held = redis.call('GET', KEYS[1])
if held == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
if not owned_by(held, ARGV[1]) then
  return 0
end
local entry = redis.call('LPOP', KEYS[2])
if not entry then
  redis.call('DEL', KEYS[1])
  return 1
end
-- a queue entry is '<token> <lease in milliseconds> <the waiter's channel>'
local token, lease, channel = string.match(entry, '^(%S+) (%d+) (.*)$')
local grant = token .. ' ' .. string.format('%d', next_fence(KEYS[3], ARGV[2]))
redis.call('SET', KEYS[1], grant, 'PX', lease)
redis.call('PUBLISH', channel, grant)
return 1
