package dev.distlock.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.CloseAfterEach;
import dev.distlock.test.Poll;
import dev.distlock.test.RedisServerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

/**
 * Spring Integration's lock semantics on a real redis-server, as its users see them: the time to live a lock has in
 * Redis, a hung holder losing its lock in {@link LeaseMode#EXPIRING}, what renews it, and what its holder is told.
 * Two registries stand for two processes.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SpringIntegrationLocksOnRedisIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final CloseAfterEach closing = new CloseAfterEach();

    private static final Duration BOUND = Duration.ofSeconds(30);

    @Test
    void anExpiringLockOfAHungHolderIsTakenAfterItsTimeToLiveAndTheHolderIsToldAtUnlock() throws Exception {
        DistlockIntegrationLockRegistry hung = registry(Duration.ofMillis(300), LeaseMode.EXPIRING);
        DistlockIntegrationLockRegistry other = registry(Duration.ofSeconds(30), LeaseMode.EXPIRING);
        DistributedLock held = hung.obtain("job");
        held.lock();
        assertThat(ttlMillis("job")).isBetween(1L, 300L);

        DistributedLock taken = other.obtain("job");
        assertThat(taken.tryLock(BOUND, Duration.ofSeconds(30))).as("taken once the time to live ran out").isTrue();

        assertThatThrownBy(held::unlock).isInstanceOf(ConcurrentModificationException.class)
                .hasMessageContaining("'job'");
        // the new holder may still be on a hand-off's claim lease, which it extends to its own a third into it
        assertThat(isHeld("job")).as("the new holder's key is left alone").isTrue();
        ((DistlockIntegrationLock) taken).fencedLock().verifyHeld();
        taken.unlock();
    }

    @Test
    void aTimeToLiveIsSetInRedisByEachAcquisitionAndByRenewLock() throws InterruptedException {
        DistlockIntegrationLockRegistry registry = registry(Duration.ofSeconds(10), LeaseMode.EXPIRING);
        DistributedLock lock = registry.obtain("ttl");
        lock.lock(Duration.ofMinutes(5));
        assertThat(ttlMillis("ttl")).isBetween(Duration.ofMinutes(4).toMillis(), Duration.ofMinutes(5).toMillis());

        assertThat(lock.tryLock(1, TimeUnit.SECONDS)).as("re-entrant").isTrue();
        assertThat(ttlMillis("ttl")).as("the registry's expireAfter again").isBetween(1L, 10_000L);

        registry.renewLock("ttl", Duration.ofMinutes(2));
        assertThat(ttlMillis("ttl")).isBetween(Duration.ofMinutes(1).toMillis(), Duration.ofMinutes(2).toMillis());
        registry.renewLock("ttl");
        assertThat(ttlMillis("ttl")).isBetween(1L, 10_000L);
        lock.unlock();
        lock.unlock();
        assertThat(isHeld("ttl")).as("released").isFalse();
    }

    @Test
    void withARenewalTaskSchedulerAnExpiringLockIsKeptPastItsTimeToLiveWhileHeld() throws InterruptedException {
        Duration expireAfter = Duration.ofSeconds(1); // a lease a renewal lands within on a busy machine
        DistlockIntegrationLockRegistry registry = registry(expireAfter, LeaseMode.EXPIRING);
        SimpleAsyncTaskScheduler scheduler = new SimpleAsyncTaskScheduler();
        closing.push(scheduler::close);
        registry.setRenewalTaskScheduler(scheduler);
        DistributedLock lock = registry.obtain("renewed");
        lock.lock();

        long end = System.nanoTime() + expireAfter.multipliedBy(3).toNanos();
        while (System.nanoTime() - end < 0) { // the subject here is time passing, not a hand-over
            assertThat(ttlMillis("renewed")).as("still held in Redis").isPositive();
            TimeUnit.MILLISECONDS.sleep(25);
        }
        lock.unlock();
        assertThat(isHeld("renewed")).as("released").isFalse();
    }

    @Test
    void aRenewedLockOutlivesItsLeaseWhileHeld() throws InterruptedException {
        DistlockIntegrationLockRegistry registry = registry(Duration.ofSeconds(1), LeaseMode.RENEWED);
        DistributedLock lock = registry.obtain("watched");
        lock.lock();

        long end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (System.nanoTime() - end < 0) {
            assertThat(ttlMillis("watched")).as("still held in Redis").isPositive();
            TimeUnit.MILLISECONDS.sleep(25);
        }
        lock.unlock();
    }

    @Test
    void aTimeToLiveOfOneMillisecondIsHeldForTheShortestLeaseAndThenLost() throws InterruptedException {
        DistlockIntegrationLockRegistry registry = registry(Duration.ofMillis(1), LeaseMode.EXPIRING);
        DistributedLock lock = registry.obtain("brief");
        // held as the shortest lease, 100 ms: a try answered too late to count on a busy machine is tried again
        assertThat(lock.tryLock(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        // once its holder counts it lost, the key is released in the background: gone, or freed, either way not held
        Poll.until("the lock no longer held in Redis", BOUND, () -> isHeld("brief") ? "ttl " + ttlMillis("brief")
                : null);
        assertThatThrownBy(lock::unlock).isInstanceOf(ConcurrentModificationException.class);
    }

    @Test
    void unlockingOrRenewingALockAnotherRegistryHoldsIsRefusedAsInSpringIntegration() throws Exception {
        DistlockIntegrationLockRegistry holder = registry(Duration.ofSeconds(30), LeaseMode.EXPIRING);
        DistlockIntegrationLockRegistry other = registry(Duration.ofSeconds(30), LeaseMode.EXPIRING);
        DistributedLock held = holder.obtain("mine");
        held.lock();

        assertThatThrownBy(() -> other.obtain("mine").unlock()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("You do not own lock at 'mine'");
        assertThatThrownBy(() -> other.renewLock("mine")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Could not renew mutex at 'mine'");
        assertThat(ttlMillis("mine")).isGreaterThan(20_000L);
        held.unlock();
    }

    private DistlockIntegrationLockRegistry registry(Duration expireAfter, LeaseMode mode) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(redis.server().host(), redis.server().port()),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
        factory.afterPropertiesSet();
        factory.start();
        closing.push(factory::destroy);
        RedisLockRegistry distlock = RedisLockRegistry.builder(factory).build();
        closing.push(distlock);
        return new DistlockIntegrationLockRegistry(distlock, expireAfter, mode);
    }

    /** Whether lock {@code name}'s key names an owner (a freed lock's key keeps its fencing token, owned by '~'). */
    private static boolean isHeld(String name) {
        Object value = redis.server().command("GET", "distlock:{" + name + "}");
        String text = value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8)
                : value == null ? "" : value.toString();
        return !text.isEmpty() && !text.startsWith("~");
    }

    /** The time to live of lock {@code name}'s key in Redis, in ms; negative if there is none. */
    private static long ttlMillis(String name) {
        return ((Number) redis.server().command("PTTL", "distlock:{" + name + "}")).longValue();
    }
}
