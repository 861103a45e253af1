-- Records who a registry is (application, host, pid, start), so that operators in any process can tell who holds
-- a lock; renewed by the registry while it is open.
-- KEYS[1] the registry's instance key
-- ARGV[1] how long the announcement lives, in milliseconds; ARGV[2..] field, value, field, value...
local function announce(keys, args)
  redis.call('HSET', keys[1], unpack(args, 2))
  redis.call('PEXPIRE', keys[1], args[1])
  return 1
end
