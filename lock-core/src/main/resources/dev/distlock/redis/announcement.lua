-- Reads what a registry announced about itself (see announce.lua).
-- KEYS[1] the registry's instance key
-- Returns the fields and values, or an empty list if it announced nothing or the announcement expired.
return redis.call('HGETALL', KEYS[1])
