-- Makes a fencing token issued elsewhere the last one of this lock, if the lock is held under the given token: a
-- Redlock holder's token is the largest its majority issued, and every node of that majority must issue larger
-- ones afterwards, whatever its own clock says.
-- KEYS[1] the lock (see common.lua)
-- ARGV[1] the owner token, ARGV[2] the fencing token
-- Returns 1 if the lock is held under the token (its fencing token is then at least ARGV[2]), else 0.
local function raise(keys, args)
  local lock, token, raised = keys[1], args[1], tonumber(args[2])
  local owner, fence, mark, origin = parse(read(lock))
  if owner ~= token then
    return 0
  end
  if raised > fence and raised <= MAX_FENCE then
    redis.call('SET', lock, compose(owner, raised, mark, origin), 'KEEPTTL')
  end
  return 1
end
