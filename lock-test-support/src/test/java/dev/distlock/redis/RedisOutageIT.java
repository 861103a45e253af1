package dev.distlock.redis;

import static dev.distlock.redis.RedisProbes.PATIENCE;
import static dev.distlock.redis.RedisProbes.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockLostException;
import dev.distlock.test.RedisServerExtension;
import dev.distlock.test.RespClient;
import dev.distlock.test.contract.RecordingListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A real redis-server frozen, paused, restarted, cutting connections or out of memory, through both client
 * libraries: holds end when they can no longer be trusted, questions never wait for Redis, calls return
 * within their bound, and nothing stays locked by a token nobody tracks.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RedisOutageIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final TestRegistries registries = new TestRegistries();

    @AfterEach
    void close() throws Exception {
        redis.server().resume();
        registries.close();
        redis.server().command("CONFIG", "SET", "maxmemory", "0");
        redis.server().command("CONFIG", "SET", "maxmemory-policy", "noeviction");
    }

    /**
     * Issue case 5 on one server: with a command timeout far above the lease, a holder whose Redis froze
     * answers its questions at once and reports the loss when its lease is up, not when Redis answers.
     */
    @ParameterizedTest
    @EnumSource(Client.class)
    void aFrozenRedisEndsTheHoldAtItsDeadlineWhileQuestionsAnswerAtOnce(Client client) throws Exception {
        RecordingListener listener = new RecordingListener();
        RedisLockRegistry holderProcess = registry(client, Duration.ofSeconds(30), b -> b.listener(listener));
        FencedLock holder = holderProcess.obtain("job", Lease.renewed(Duration.ofMillis(1500)));
        holder.lock();

        redis.server().suspend();
        long asked = System.nanoTime();
        boolean heldAtFirst = holder.isHeldByCurrentThread();
        Duration answeredIn = Duration.ofNanos(System.nanoTime() - asked);
        assertThat(listener.awaitLoss(PATIENCE)).as("lost at the deadline, Redis still frozen").isTrue();
        assertThat(redis.server().isSuspended()).isTrue();
        boolean heldAfterDeadline = holder.isHeldByCurrentThread();
        assertThatThrownBy(holder::unlock).isInstanceOf(LockLostException.class);
        redis.server().resume();

        report(client + ", Redis frozen, lease 1.5 s, command timeout 30 s: isHeldByCurrentThread() answered in "
                + answeredIn.toNanos() / 1000 + " µs; loss reported after "
                + listener.events("lost").get(0).elapsed().toMillis() + " ms held");
        assertThat(heldAtFirst).isTrue();
        assertThat(answeredIn).as("without waiting for Redis").isLessThan(Duration.ofMillis(500));
        assertThat(heldAfterDeadline).isFalse();
        assertThat(listener.events("lost")).singleElement().satisfies(event ->
                assertThat(event.elapsed()).isLessThan(Duration.ofSeconds(10)));
        // once Redis answers again the lock is free, or frees itself within the lease
        FencedLock next = registry(client, Duration.ofSeconds(5), UnaryOperator.identity()).obtain("job");
        assertThat(next.tryLock(PATIENCE)).isTrue();
        next.unlock();
    }

    /** Issue case 7: a try that times out while Redis is paused runs when the pause ends; its lock is freed. */
    @ParameterizedTest
    @EnumSource(Client.class)
    void aTryThatTimedOutDuringAPauseLeavesNoOwnerlessLockWhenRedisAnswersAgain(Client client) throws Exception {
        Duration commandTimeout = Duration.ofMillis(500);
        RedisLockRegistry registry = registry(client, commandTimeout, UnaryOperator.identity());
        FencedLock lock = registry.obtain("job");
        connected(registry); // the try, not the connection's handshake, is what the pause holds up

        redis.server().pauseClients(Duration.ofSeconds(2));
        long start = System.nanoTime();
        assertThatThrownBy(() -> lock.tryLock(Duration.ZERO)).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("'job'");
        Duration failedAfter = Duration.ofNanos(System.nanoTime() - start);

        assertThat(failedAfter).as("one command timeout, with slack for a loaded machine")
                .isLessThan(commandTimeout.plusSeconds(3));
        // after the pause the try's SET runs (30 s lease) and the clean-up releases it right behind
        awaitUntil(() -> isFree(lockValue()));
        report(client + ", CLIENT PAUSE 2 s, command timeout 0.5 s: tryLock() failed after " + failedAfter.toMillis()
                + " ms; the hold its try made was freed " + (Duration.ofNanos(System.nanoTime() - start).toMillis())
                + " ms after the call began (pause 2000 ms, lease 30000 ms)");
        FencedLock other = registry(client, Duration.ofSeconds(5), UnaryOperator.identity()).obtain("job");
        assertThat(other.tryLock()).isTrue();
        other.unlock();
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void aCallOnAFrozenRedisFailsWithinItsWaitPlusOneCommandTimeout(Client client) throws Exception {
        Duration commandTimeout = Duration.ofSeconds(1);
        FencedLock lock = registry(client, commandTimeout, UnaryOperator.identity()).obtain("job");
        redis.server().suspend();

        Duration wait = Duration.ofMillis(500);
        long start = System.nanoTime();
        assertThatThrownBy(() -> lock.tryLock(wait)).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("'job'");
        Duration failedAfter = Duration.ofNanos(System.nanoTime() - start);
        redis.server().resume();

        report(client + ", Redis frozen, tryLock(500 ms), command timeout 1 s: failed after " + failedAfter.toMillis()
                + " ms");
        assertThat(failedAfter).isLessThan(wait.plus(commandTimeout).plusSeconds(3));
    }

    @Test
    void aRestartThatLostTheDataIsALossForTheHolderAndTheNextTokenIsStillLarger() throws Exception {
        RecordingListener listener = new RecordingListener();
        FencedLock holder = registry(Client.LETTUCE, Duration.ofSeconds(2), b -> b.listener(listener))
                .obtain("job", Lease.renewed(Duration.ofSeconds(1)));
        holder.lock();
        long before = holder.fencingToken();

        redis.server().restart();

        assertThat(listener.awaitLoss(PATIENCE)).isTrue();
        FencedLock next = registry(Client.LETTUCE, Duration.ofSeconds(2), UnaryOperator.identity()).obtain("job");
        assertThat(next.tryLock(PATIENCE)).isTrue();
        assertThat(next.fencingToken()).isGreaterThan(before);
        next.unlock();
    }

    /**
     * Connections cut in a loop while two processes take turns: clients reconnect and resend commands, calls
     * fail now and then, but no two holders overlap, the protected resource never sees an older fencing
     * token, and nothing is left locked once the cutting stops.
     */
    @ParameterizedTest
    @EnumSource(Client.class)
    void connectionsCutInALoopNeverMakeTwoHolders(Client client) throws Exception {
        List<RedisLockRegistry> processes = List.of(
                registry(client, Duration.ofSeconds(2), b -> b.maxPollInterval(Duration.ofMillis(100))),
                registry(client, Duration.ofSeconds(2), b -> b.maxPollInterval(Duration.ofMillis(100))));
        FencedResource resource = new FencedResource();
        AtomicBoolean cutting = new AtomicBoolean(true);
        AtomicInteger cuts = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(7);
        try {
            Future<?> cutter = threads.submit(() -> {
                try (RespClient admin = redis.server().client()) {
                    while (cutting.get()) {
                        admin.command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");
                        cuts.incrementAndGet();
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(30));
                    }
                }
                return null;
            });
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                FencedLock lock = processes.get(t % 2).obtain("job");
                workers.add(threads.submit(() -> {
                    for (int i = 0; i < 40; i++) {
                        resource.use(lock);
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(120, TimeUnit.SECONDS);
            }
            cutting.set(false);
            cutter.get(10, TimeUnit.SECONDS);
        } finally {
            cutting.set(false);
            threads.shutdownNow();
        }

        report(client + ", connections cut every 30 ms: " + cuts.get() + " cuts, " + resource.writes()
                + " writes, " + resource.staleWrites() + " stale, at most " + resource.maxInside() + " inside");
        assertThat(cuts.get()).isPositive();
        assertThat(resource.maxInside()).as("holders at once").isEqualTo(1);
        assertThat(resource.staleWrites()).as("writes with an older fencing token").isZero();
        assertThat(resource.writes()).isPositive();
        awaitUntil(() -> isFree(lockValue()));
    }

    /** An evicting Redis may drop the lock key: the holder learns of it as a loss. */
    @Test
    void aLockKeyEvictedForMemoryIsReportedLost() throws Exception {
        RecordingListener listener = new RecordingListener();
        FencedLock holder = registry(Client.LETTUCE, Duration.ofSeconds(5), b -> b.listener(listener))
                .obtain("job", Lease.renewed(Duration.ofSeconds(3)));
        holder.lock();
        // volatile-ttl evicts keys with a TTL, the lock's among them, as soon as memory is over the limit
        redis.server().command("CONFIG", "SET", "maxmemory-policy", "volatile-ttl");
        redis.server().command("CONFIG", "SET", "maxmemory", "1");
        awaitUntil(() -> lockValue() == null);

        assertThat(listener.awaitLoss(PATIENCE)).isTrue();
        assertThat(holder.isHeldByCurrentThread()).isFalse();
    }

    /** A full Redis that refuses writes says so in the error. */
    @Test
    void aFullRedisRefusingWritesFailsTheAcquireWithItsOwnWords() throws Exception {
        redis.server().command("CONFIG", "SET", "maxmemory-policy", "noeviction");
        redis.server().command("CONFIG", "SET", "maxmemory", "1");
        FencedLock lock = registry(Client.LETTUCE, Duration.ofSeconds(5), UnaryOperator.identity()).obtain("job");

        assertThatThrownBy(lock::tryLock).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("'job'").hasMessageContaining("OOM");
    }

    // --- helpers ---

    /** Figures for docs/RELIABILITY.md, in the test output. */
    private static void report(String figure) {
        System.out.println("[reliability] " + figure);
    }

    /** Makes {@code registry} connect (and learn the server's scripts) with a lock taken and given back. */
    private static void connected(RedisLockRegistry registry) {
        FencedLock warmUp = registry.obtain("warm-up");
        assertThat(warmUp.tryLock()).isTrue();
        warmUp.unlock();
    }

    private RedisLockRegistry registry(Client client, Duration commandTimeout,
            UnaryOperator<RedisLockRegistry.Builder> settings) {
        return registries.registry(redis.server(), client, commandTimeout, settings);
    }

    private static Object lockValue() {
        return redis.server().command("GET", "distlock:{job}");
    }

    /** Whether a lock key's value (from {@code GET}) is no hold: gone, or freed (kept with its last token). */
    private static boolean isFree(Object value) {
        return value == null || ((String) value).startsWith("~ ");
    }

    /**
     * What a lock protects, checking what a careful resource checks: nobody else inside, and no write with a
     * fencing token older than one already seen. Calls that fail (backend errors, a loss reported at unlock)
     * are allowed: a lock may fail, it must not lie.
     */
    private static final class FencedResource {

        private final AtomicInteger inside = new AtomicInteger();
        private final AtomicInteger maxInside = new AtomicInteger();
        private final AtomicLong highestFence = new AtomicLong();
        private final AtomicInteger staleWrites = new AtomicInteger();
        private final AtomicInteger writes = new AtomicInteger();

        void use(FencedLock lock) {
            try {
                if (!lock.tryLock(Duration.ofSeconds(10))) {
                    return;
                }
            } catch (LockBackendException failedToLock) {
                return;
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
            try {
                maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                long fence = lock.fencingToken();
                if (highestFence.getAndAccumulate(fence, Math::max) > fence) {
                    staleWrites.incrementAndGet();
                }
                writes.incrementAndGet();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                inside.decrementAndGet();
            } finally {
                try {
                    lock.unlock();
                } catch (LockBackendException | LockLostException reported) {
                    // reported to the caller: allowed
                }
            }
        }

        int maxInside() {
            return maxInside.get();
        }

        int staleWrites() {
            return staleWrites.get();
        }

        int writes() {
            return writes.get();
        }
    }
}
