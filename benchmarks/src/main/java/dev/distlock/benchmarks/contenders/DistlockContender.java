package dev.distlock.benchmarks.contenders;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.support.StoreLockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * distlock's {@link RedisLockRegistry} with its default settings (renewed 30 s lease, so the watchdog runs,
 * and fencing tokens), one registry and one Spring Data Lettuce connection factory per client. A diagnostic
 * variant takes a fixed 30 s lease instead, so that the watchdog's share of the cost shows.
 */
public final class DistlockContender implements Contender {

    private static final Lease FIXED_LEASE = Lease.fixed(Duration.ofSeconds(30));

    private final RedisAddress redis;
    private final boolean watchdog;

    /**
     * @param watchdog true for the default renewed lease; false for a fixed 30 s lease without renewal
     */
    public DistlockContender(RedisAddress redis, boolean watchdog) {
        this.redis = redis;
        this.watchdog = watchdog;
    }

    @Override
    public String name() {
        return watchdog ? "distlock" : "distlock-fixed";
    }

    @Override
    public String description() {
        return "distlock " + LibraryVersion.distlock() + " `RedisLockRegistry`, "
                + (watchdog ? "defaults (watchdog, fencing tokens)" : "fixed 30 s lease (no watchdog), fencing tokens")
                + ", Spring Data Redis " + LibraryVersion.of(LettuceConnectionFactory.class) + " on Lettuce";
    }

    @Override
    public LockClient newClient() {
        LettuceConnectionFactory factory = redis.newConnectionFactory();
        RedisLockRegistry registry = RedisLockRegistry.builder(factory).keyPrefix("bench-distlock").build();
        Function<String, FencedLock> obtain = watchdog ? registry::obtain : key -> registry.obtain(key, FIXED_LEASE);
        return client(registry, obtain, List.of(factory));
    }

    /**
     * A client of {@code registry} that reads every acquisition's fencing token, as a user of fencing would; closing
     * it closes the registry, then the connection factories.
     */
    public static LockClient client(StoreLockRegistry registry, Function<String, FencedLock> obtain,
            List<LettuceConnectionFactory> factories) {
        LongAdder tokens = new LongAdder();
        return new LockObjectClient<>(obtain, lock -> tokens.add(lock.fencingToken()), () -> {
            registry.close();
            factories.forEach(LettuceConnectionFactory::destroy);
        });
    }
}
