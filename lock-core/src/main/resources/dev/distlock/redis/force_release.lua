-- Ends a hold for an operator, whoever owns it, if it is the hold with the given fencing token (a hung holder that
-- keeps renewing): as its owner's release would, it hands the lock to the first live waiter or frees it with its last
-- token kept, so the next token is larger. The hold ends without its owner's release, so a new life of the key begins
-- after it (see common.lua): its owner's release, or a replay of it, finds it lost rather than released, and so do
-- replays of releases made before it in the old life. Not part of the function library: an operator's rare call runs
-- by EVALSHA, on every Redis version.
-- KEYS: the lock, queue and waiters keys (see common.lua)
-- ARGV[1] the hold's fencing token, ARGV[2] how long the freed lock keeps its last token (fence retention), in ms
-- Returns {1} if it ended the hold (or {1, error} if the hand-off notice was refused), {0} if the lock is free, held
-- with another fencing token, or no lock's.
local function force_release(keys, args)
  local lock = keys[1]
  local owner, fence = parse(read(lock))
  if not owner or owner == FREE or fence ~= tonumber(args[1]) then
    return { 0 }
  end
  local now_ms, now_us = clock()
  -- the first token of the new life: unissued, above the ended hold's, so every later one is larger still
  local next = next_fence(fence, now_us)
  if not next then
    return fence_exhausted(lock)
  end
  local waiter = pop_live_waiter(keys, now_ms)
  if waiter then
    local refused = hand_over(lock, waiter, next, fmt(next), now_ms)
    return refused and { 1, refused } or { 1 }
  end
  free(lock, fmt(next), fmt(next), args[2])
  return { 1 }
end
