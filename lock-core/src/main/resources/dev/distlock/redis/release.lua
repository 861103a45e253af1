-- Releases the lock if it is held under the given token; never touches another owner's hold. If live waiters are
-- queued, hands the lock to the first of them instead, with a new fencing token, and tells it on the channel its
-- entry names.
-- KEYS: the lock, queue and waiters keys (see common.lua)
-- ARGV[1] the owner token, ARGV[2] how long the freed lock keeps its last token (fence retention), in ms,
-- ARGV[3] the hold's fencing token (a release run again finds by it that its first run released the hold)
-- Returns {1} if released, now or by a first run of this release (or {1, error} if the hand-off notice was
-- refused), {0} if the lock was not held under the token (expired and taken, deleted or taken over).
local function release_lock(keys, args)
  return release(keys, args[1], args[2], args[3])
end
