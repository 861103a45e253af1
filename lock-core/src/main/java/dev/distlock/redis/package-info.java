/**
 * The Redis lock: {@link dev.distlock.redis.RedisLockRegistry} on Spring Data Redis (Lettuce or Jedis).
 * Acquire, release and extend are Lua scripts kept as resources beside this package and run by SHA.
 */
package dev.distlock.redis;
