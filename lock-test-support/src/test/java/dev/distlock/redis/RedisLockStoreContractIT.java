package dev.distlock.redis;

import dev.distlock.core.spi.LockStore;
import dev.distlock.test.RedisBinary;
import dev.distlock.test.RedisServer;
import dev.distlock.test.RedisServerExtension;
import dev.distlock.test.contract.LockStoreContract;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The store protocol on the Redis scripts, on each server version they support: the same answers as the in-memory
 * store (see {@code InMemoryLockStoreContractTest}). Each variant starts its own server.
 */
abstract class RedisLockStoreContractIT extends LockStoreContract {

    private LettuceConnectionFactory factory;

    abstract RedisServer server();

    @Override
    protected LockStore newStore() {
        server().command("FLUSHALL");
        factory = RedisConnections.lettuce(server(), Duration.ofSeconds(5));
        return RedisLockStores.withoutNotices(factory, "distlock", Duration.ofHours(1));
    }

    @Override
    protected void holdWithoutExpiry(String name, String token) {
        // a lock's value (see common.lua): owner, fencing token, no waiters marked, the life's first token
        server().command("SET", RedisLockStores.keyOf("distlock", name), token + " 1 - 1 -");
    }

    @Override
    protected void endFenceRetention(String name) {
        server().command("DEL", RedisLockStores.keyOf("distlock", name));
    }

    @AfterEach
    void closeConnections() {
        factory.destroy();
    }

    /** Redis 7.0, the installed server. */
    static class Redis70IT extends RedisLockStoreContractIT {

        @RegisterExtension
        static final RedisServerExtension redis = new RedisServerExtension();

        @Override
        RedisServer server() {
            return redis.server();
        }
    }

    /** Redis 6.0: no {@code SET ... GET}, no {@code PEXPIRE ... GT/LT}; the scripts fall back to separate commands. */
    static class Redis60IT extends RedisLockStoreContractIT {

        @RegisterExtension
        static final RedisServerExtension redis = new RedisServerExtension()
                .using(RedisBinary.named(RedisBinary.REDIS_6_0));

        @Override
        RedisServer server() {
            return redis.server();
        }
    }

    /** Valkey 8.0. */
    static class Valkey80IT extends RedisLockStoreContractIT {

        @RegisterExtension
        static final RedisServerExtension redis = new RedisServerExtension()
                .using(RedisBinary.named(RedisBinary.VALKEY_8_0));

        @Override
        RedisServer server() {
            return redis.server();
        }
    }
}
