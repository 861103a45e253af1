-- Makes a fencing token issued elsewhere the last one of this lock, if the lock is held under the given token:
-- a Redlock holder's token is the largest its majority issued, and every node of that majority must issue
-- larger ones afterwards, whatever its own clock says.
-- KEYS: the lock and fence keys (see common.lua)
-- ARGV[1] the owner token, ARGV[2] the fencing token, ARGV[3] how long the fence lives, in milliseconds
-- Returns 1 if the lock is held under the token (the fence is then at least ARGV[2]), else 0.
local token, fence = ARGV[1], tonumber(ARGV[2])
if not owned_by(value_or_false(redis.pcall('GET', KEYS[1])), token) then
  return 0
end
local last, _, queued = parse_fence(value_or_false(redis.pcall('GET', KEYS[2])))
if fence > last and fence <= MAX_FENCE then
  redis.call('SET', KEYS[2], fmt(fence) .. ' ' .. token .. (queued and ' q' or ''), 'PX', ARGV[3])
end
return 1
