-- Releases the lock if it is held under the given token; never touches another owner's key. If live
-- waiters are queued, hands the lock to the first of them instead, with a new fencing token, and tells it on
-- the channel its entry names.
-- KEYS: the lock, fence, queue, waiters and released keys (see common.lua)
-- ARGV[1] the owner token, ARGV[2] the fence's lifetime
-- Returns {1} if released (or {1, error} if the hand-off notice was refused), {0} if the lock was not held
-- under the token (expired and taken, deleted or taken over).
return release(ARGV[1], ARGV[2])
