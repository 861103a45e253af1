package dev.distlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.LockRegistry;
import dev.distlock.test.CloseAfterEach;
import dev.distlock.test.Poll;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockingTaskExecutor.TaskResult;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.support.KeepAliveLockProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What ShedLock documents of an extensible lock provider and of its Redis providers, held against distlock's: each
 * backend runs it with registries that stand for separate application instances. The tests are written from
 * ShedLock's documented behaviour ({@code LockProvider}, {@code SimpleLock}, {@code LockConfiguration}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
abstract class ShedLockProviderContract {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final Duration LONG = Duration.ofMinutes(5);

    @RegisterExtension
    final CloseAfterEach closeAfterEach = new CloseAfterEach();

    /** The provider of this instance, typed as ShedLock's extensible provider (code written on it compiles). */
    ExtensibleLockProvider provider;
    /** The provider of another instance of the application. */
    ExtensibleLockProvider other;
    LockRegistry registry;
    /** A name of this test's own. */
    final String name = "job-" + UUID.randomUUID();

    /** A registry standing for one application instance, closed by {@link #closeAfterEach}. */
    protected abstract LockRegistry newRegistry();

    /**
     * Two instances, each connected (a first lock) before the test: ShedLock counts {@code lockAtLeastFor} from the
     * lock's creation, and a cold first acquisition could take all of it.
     */
    @BeforeEach
    void twoInstances() {
        registry = newRegistry();
        provider = new DistlockLockProvider(registry);
        other = new DistlockLockProvider(newRegistry());
        lock(provider, name + "-warm-up", LONG, Duration.ZERO).orElseThrow().unlock();
        lock(other, name + "-warm-up", LONG, Duration.ZERO).orElseThrow().unlock();
    }

    @Test
    void aHeldLockIsRefusedToItsOwnInstanceAndToAnotherUntilItIsReleased() {
        SimpleLock held = lock(provider, name, LONG, Duration.ZERO).orElseThrow();

        assertThat(lock(provider, name, LONG, Duration.ZERO)).isEmpty();
        assertThat(lock(other, name, LONG, Duration.ZERO)).isEmpty();
        held.unlock();

        assertFree(name);
    }

    @Test
    void locksOfTwoNamesAreIndependent() {
        SimpleLock first = lock(provider, name, LONG, Duration.ZERO).orElseThrow();
        SimpleLock second = lock(provider, name + "-2", LONG, Duration.ZERO).orElseThrow();

        first.unlock();
        second.unlock();
        assertFree(name);
        assertFree(name + "-2");
    }

    @Test
    void lockAtMostForFreesTheLockOfAJobThatNeverUnlocks() {
        lock(provider, name, Duration.ofMillis(300), Duration.ZERO).orElseThrow();

        assertThat(lock(other, name, LONG, Duration.ZERO)).isEmpty();
        awaitTakenBy(other, name, LONG);
    }

    @Test
    void lockAtLeastForKeepsTheLockAfterAnEarlyUnlock() {
        lock(provider, name, LONG, Duration.ofSeconds(1)).orElseThrow().unlock();

        assertThat(lock(other, name, LONG, Duration.ZERO)).as("taken for the rest of lockAtLeastFor").isEmpty();
        awaitTakenBy(other, name, LONG);
    }

    @Test
    void unlockAfterLockAtMostForRanOutDoesNothingAndLeavesTheNextHoldersLock() {
        SimpleLock overran = lock(provider, name, Duration.ofMillis(300), Duration.ZERO).orElseThrow();
        SimpleLock next = awaitTakenBy(other, name, LONG);

        assertThatCode(overran::unlock).doesNotThrowAnyException();

        assertThat(lock(provider, name, LONG, Duration.ZERO)).as("the next holder's lock").isEmpty();
        next.unlock();
        assertFree(name);
    }

    @Test
    void aJobThatOverranLockAtMostForEndsWithItsOwnResultOrFailure() throws Throwable {
        LockingTaskExecutor executor = new DefaultLockingTaskExecutor(provider);
        LockConfiguration window = new LockConfiguration(Instant.now(), name, Duration.ofMillis(300), Duration.ZERO);

        TaskResult<String> result = executor.executeWithLock(() -> {
            awaitTakenBy(other, name, LONG);
            return "report sent";
        }, window);
        assertThat(result.getResult()).isEqualTo("report sent");

        IllegalStateException failure = new IllegalStateException("report failed");
        LockConfiguration again = new LockConfiguration(Instant.now(), name + "-2", Duration.ofMillis(300),
                Duration.ZERO);
        assertThatThrownBy(() -> executor.executeWithLock((LockingTaskExecutor.Task) () -> {
            awaitTakenBy(other, name + "-2", LONG);
            throw failure;
        }, again)).isSameAs(failure);
    }

    @Test
    void extendSetsANewLockAtMostForFromNowAndCanBeRepeated() {
        SimpleLock lock = lock(provider, name, Duration.ofMillis(300), Duration.ZERO).orElseThrow();

        SimpleLock extended = lock.extend(Duration.ofSeconds(30), Duration.ZERO).orElseThrow()
                .extend(Duration.ofSeconds(30), Duration.ZERO).orElseThrow()
                .extend(Duration.ofSeconds(30), Duration.ZERO).orElseThrow();

        assertThat(registry.inspect(name).remainingLease()).isGreaterThan(Duration.ofSeconds(20));
        assertThat(lock(other, name, LONG, Duration.ZERO)).isEmpty();
        extended.unlock();
        assertFree(name);
    }

    @Test
    void afterExtendOnlyTheNewLockMayBeUsed() {
        SimpleLock lock = lock(provider, name, LONG, Duration.ZERO).orElseThrow();
        SimpleLock extended = lock.extend(LONG, Duration.ZERO).orElseThrow();

        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalStateException.class).hasMessageContaining(name);
        assertThatThrownBy(() -> lock.extend(LONG, Duration.ZERO)).isInstanceOf(IllegalStateException.class);
        assertThat(lock(other, name, LONG, Duration.ZERO)).as("still held").isEmpty();

        extended.unlock();
        assertFree(name);
    }

    @Test
    void anUnlockedLockCanBeNeitherUnlockedNorExtendedAgain() {
        SimpleLock lock = lock(provider, name, LONG, Duration.ZERO).orElseThrow();
        lock.unlock();

        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> lock.extend(LONG, Duration.ZERO)).isInstanceOf(IllegalStateException.class);
        assertFree(name);
    }

    @Test
    void aLockOfAFewMillisecondsIsGrantedAndHasExpiredForItsHolderOnceTheyPass() throws Exception {
        Optional<SimpleLock> lock = lock(provider, name, Duration.ofMillis(2), Duration.ZERO);
        assertThat(lock).isPresent();
        TimeUnit.MILLISECONDS.sleep(5); // the lock's 2 ms pass

        assertThat(lock.get().extend(LONG, Duration.ZERO)).isEmpty();
        assertFree(name);
    }

    @Test
    void extendAfterAnotherInstanceTookTheLockGivesNothingAndLeavesTheirLockAsItIs() {
        SimpleLock overran = lock(provider, name, Duration.ofMillis(300), Duration.ZERO).orElseThrow();
        SimpleLock next = awaitTakenBy(other, name, Duration.ofSeconds(10));

        assertThat(overran.extend(Duration.ofSeconds(60), Duration.ZERO)).isEmpty();

        assertThat(registry.inspect(name).remainingLease()).as("the next holder's lease").isPositive()
                .isLessThanOrEqualTo(Duration.ofSeconds(10));
        next.unlock();
        assertFree(name);
    }

    @Test
    void extendCanKeepTheLockTakenForANewLockAtLeastFor() {
        SimpleLock lock = lock(provider, name, LONG, Duration.ZERO).orElseThrow();

        lock.extend(Duration.ofSeconds(30), Duration.ofSeconds(1)).orElseThrow().unlock();

        assertThat(lock(other, name, LONG, Duration.ZERO)).as("taken for the new lockAtLeastFor").isEmpty();
        awaitTakenBy(other, name, LONG);
    }

    @Test
    void anExtendWithLockAtLeastForLongerThanLockAtMostForIsRefusedAndTheLockStaysUsable() {
        SimpleLock lock = lock(provider, name, LONG, Duration.ZERO).orElseThrow();

        assertThatThrownBy(() -> lock.extend(Duration.ofSeconds(1), Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class);

        lock.unlock();
        assertFree(name);
    }

    /**
     * A counter per job, read and written back (not incremented atomically) under ShedLock's executor by threads of
     * two instances: an update lost to an overlap would leave it short.
     */
    @Test
    void jobsRunByThreadsOfTwoInstancesNeverOverlap() throws Exception {
        int threadsPerJob = 3;
        int runsPerThread = 40;
        AtomicIntegerArray counters = new AtomicIntegerArray(2);
        List<LockingTaskExecutor> instances = List.of(new DefaultLockingTaskExecutor(provider),
                new DefaultLockingTaskExecutor(other));
        ExecutorService threads = Executors.newFixedThreadPool(2 * threadsPerJob);
        closeAfterEach.push(threads::shutdownNow);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < 2 * threadsPerJob; i++) {
            int job = i % 2;
            LockingTaskExecutor instance = instances.get(i / 2 % 2);
            done.add(threads.submit(() -> {
                AtomicInteger ran = new AtomicInteger();
                while (ran.get() < runsPerThread) {
                    instance.executeWithLock((Runnable) () -> {
                        int seen = counters.get(job);
                        Thread.yield();
                        counters.set(job, seen + 1);
                        ran.incrementAndGet();
                    }, new LockConfiguration(Instant.now(), name + "-" + job, LONG, Duration.ofMillis(5)));
                }
                return null;
            }));
        }
        for (Future<?> thread : done) {
            thread.get(50, TimeUnit.SECONDS);
        }
        assertThat(counters.get(0)).isEqualTo(threadsPerJob * runsPerThread);
        assertThat(counters.get(1)).isEqualTo(threadsPerJob * runsPerThread);
    }

    /**
     * ShedLock's {@code KeepAliveLockProvider} over distlock's: its timer's task (run here by the test) extends the
     * lock to a full {@code lockAtMostFor} again, and unlocking through it releases the lock and stops the task.
     */
    @Test
    void keepAliveLockProviderKeepsTheLockForAnotherLockAtMostFor() {
        ManualTimer timer = new ManualTimer();
        closeAfterEach.push(timer::shutdownNow);
        LockProvider keepAlive = new KeepAliveLockProvider(provider, timer);
        // created 20 s ago with 30 s at most: 10 s are left
        SimpleLock lock = keepAlive.lock(new LockConfiguration(Instant.now().minusSeconds(20), name,
                Duration.ofSeconds(30), Duration.ZERO)).orElseThrow();
        assertThat(registry.inspect(name).remainingLease()).isLessThanOrEqualTo(Duration.ofSeconds(10));

        timer.runTask();

        assertThat(registry.inspect(name).remainingLease()).isGreaterThan(Duration.ofSeconds(20));
        assertThat(lock(other, name, LONG, Duration.ZERO)).isEmpty();
        lock.unlock();
        assertThat(timer.task().isCancelled()).as("keep-alive stopped").isTrue();
        assertFree(name);
    }

    static Optional<SimpleLock> lock(ExtensibleLockProvider provider, String name, Duration atMost, Duration atLeast) {
        return provider.lock(new LockConfiguration(Instant.now(), name, atMost, atLeast));
    }

    /** Tries {@code provider} until it gets {@code name} (bounded); its lock with {@code atMost}. */
    static SimpleLock awaitTakenBy(ExtensibleLockProvider provider, String name, Duration atMost) {
        SimpleLock[] taken = new SimpleLock[1];
        Poll.until("lock '" + name + "' taken", BOUND, () -> {
            taken[0] = lock(provider, name, atMost, Duration.ZERO).orElse(null);
            return taken[0] == null ? "still held" : null;
        });
        return taken[0];
    }

    /** The name is free for another instance now. */
    void assertFree(String lockName) {
        SimpleLock probe = lock(other, lockName, LONG, Duration.ZERO).orElse(null);
        assertThat(probe).as("lock '%s' free", lockName).isNotNull();
        probe.unlock();
    }
}
