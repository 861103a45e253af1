-- Reads what a registry announced about itself (see announce.lua).
-- KEYS[1] the registry's instance key
-- Returns the fields and values, or an empty list if it announced nothing or the announcement expired.
local function announcement(keys)
  return redis.call('HGETALL', keys[1])
end
