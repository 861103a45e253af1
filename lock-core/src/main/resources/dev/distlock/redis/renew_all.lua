-- Renews several holds in one call (a semaphore's holders too, see common.lua): for each lock held under its token, makes the remaining lease at least the
-- given one, never shorter (a renewal, as extend.lua's '1').
-- KEYS: the locks (see common.lua), all in one cluster slot on a cluster
-- ARGV: for each lock, in the same order, its owner token; then, for each, its lease in milliseconds
-- Returns for each lock, in order, 1 if it is held under its token (and its lease now at least the given one), else 0.
local function renew_all(keys, args)
  local count = #keys
  local owned = {}
  for i = 1, count do
    local value = read(keys[i])
    if owns(value, args[i]) then
      lengthen(keys[i], args[count + i], false)
      owned[i] = 1
    elseif value == false and is_permits(keys[i]) then
      owned[i] = set_permits_lease(keys[i], args[i], tonumber(args[count + i]), true, clock())
    else
      owned[i] = 0
    end
  end
  return owned
end
