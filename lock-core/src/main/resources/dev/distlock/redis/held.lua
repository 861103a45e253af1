-- Whether somebody holds the lock, or a permit of the semaphore of that name (a key of another type counts:
-- something holds the name). Changes nothing.
-- KEYS[1] the lock (see common.lua)
-- Returns 1 if held, else 0.
local function held(keys)
  local value = redis.pcall('GET', keys[1])
  if type(value) == 'table' and value.err then
    if not is_permits(keys[1]) then
      return 1
    end
    local now_ms = clock()
    local fields = redis.call('HGETALL', keys[1])
    for i = 1, #fields, 2 do
      if string.sub(fields[i], 1, 2) == 'o:' and tonumber(string.match(fields[i + 1], '^(%d+)')) > now_ms then
        return 1
      end
    end
    return 0
  end
  return (value and parse(value) ~= FREE) and 1 or 0
end
