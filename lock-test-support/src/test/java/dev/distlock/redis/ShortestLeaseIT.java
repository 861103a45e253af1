package dev.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The shortest lease a hold accepts ({@link Lease#MIN}) is taken on a real Redis: the validity rule (a reply must
 * leave a tenth of the lease after the drift margin of 1% + 2ms) leaves a round trip 87ms. The registry has made a
 * command before, as in a running application: its very first one opens the connection and loads the scripts,
 * which on a busy machine can take longer than that.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShortestLeaseIT {

    private static final int ROUNDS = 5;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final TestRegistries registries = new TestRegistries();

    @AfterEach
    void close() throws Exception {
        registries.close();
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void theShortestLeaseIsTakenByOneTryAndByATimedTryOnAFreeName(Client client) throws Exception {
        RedisLockRegistry registry = registries.registry(redis.server(), client, Duration.ofSeconds(5), b -> b);
        FencedLock warmUp = registry.obtain("warm-up");
        warmUp.lock();
        warmUp.unlock();

        long slowestMicros = 0;
        for (int round = 0; round < ROUNDS; round++) {
            FencedLock once = registry.obtain("once-" + round, Lease.fixed(Lease.MIN));
            FencedLock timed = registry.obtain("timed-" + round, Lease.fixed(Lease.MIN));
            long start = System.nanoTime();
            boolean acquired = once.tryLock();
            slowestMicros = Math.max(slowestMicros, TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start));

            assertThat(acquired).as("tryLock() on a free name, round %d", round).isTrue();
            assertThat(timed.tryLock(Duration.ofMillis(300))).as("tryLock(300ms) on a free name, round %d", round)
                    .isTrue();
            // what is left of the lease Redis set (-2 once it ran out, on a busy machine)
            assertThat((Long) redis.server().command("PTTL", registry.keyOf("timed-" + round)))
                    .as("the lease Redis set").isLessThanOrEqualTo(Lease.MIN.toMillis());
        }
        System.out.printf("[reliability] %s: tryLock() with a lease of %s on a free name: %d of %d acquired, slowest "
                + "%d µs%n", client, Lease.MIN, ROUNDS, ROUNDS, slowestMicros);
    }
}
