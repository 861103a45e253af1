-- Releases the lock if it is held under the given token; never touches another owner's key.
-- KEYS[1] the lock key, KEYS[2] the waiters key
-- ARGV[1] the owner token, ARGV[2] the channel that announces releases of this lock
-- Returns 1 if released, 0 if the lock was not held under the token (expired, deleted or taken over).
-- Publishes only when a waiter marked the waiters key, so uncontended releases cost no PUBLISH.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
if redis.call('DEL', KEYS[1], KEYS[2]) > 1 then
  redis.call('PUBLISH', ARGV[2], '')
end
return 1
