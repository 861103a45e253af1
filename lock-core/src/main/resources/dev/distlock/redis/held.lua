-- Whether somebody holds the lock (a key of another type counts: something holds the name).
-- KEYS[1] the lock (see common.lua)
-- Returns 1 if held, else 0.
local function held(keys)
  local value = redis.pcall('GET', keys[1])
  if type(value) == 'table' and value.err then
    return 1
  end
  return (value and parse(value) ~= FREE) and 1 or 0
end
