package dev.distlock.core.engine.acquire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.WaitEnd;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import dev.distlock.core.engine.VirtualRuntime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Non-blocking acquisitions on a {@link VirtualRuntime}: the store's commands, the timers and the steps run when the
 * test says, so what a wait reports (how long it took, what ended it) and what happens at the exact end of a wait are
 * seen at their instant.
 */
@BoundedTest
class AcquisitionTimingTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final VirtualRuntime clock = new VirtualRuntime();
    private final FaultyStore store = new FaultyStore();
    private final EngineFixtures.Heard heard = new EngineFixtures.Heard();
    private final EngineFixtures.TestRegistry registry = EngineFixtures.registry(store,
            EngineFixtures.settings().runtime(clock).listener(heard).maxPollInterval(Duration.ofSeconds(30)));

    /** The tries this registry sent for {@code name} (the test's own, as "other", left out). */
    private long tries(String name) {
        return store.sent.stream().filter(command -> command.startsWith("tryAcquire " + name + " "))
                .filter(command -> !command.endsWith(" other")).count();
    }

    @AfterEach
    void close() {
        // never a blocking close on a clock only the test moves: a call that failed to withdraw would block it for good
        registry.closeAsync();
        clock.runPending();
    }

    @Test
    void aWaiterHandedTheLockHearsHowLongItWaitedAndThatANoticeEndedTheWait() {
        long fence = store.tryAcquire("n", "other", 30_000, false, 1_000).fencingToken();
        CompletableFuture<DetachedLock> waiting = registry.obtain("n").tryLockAsync(Duration.ofSeconds(10))
                .toCompletableFuture();
        clock.runPending();
        assertThat(store.memory.waitersQueued("n")).isEqualTo(1);

        clock.advance(250 * MS);
        store.release("n", "other", fence); // hands the lock to the waiter's queued token
        clock.runPending();

        assertThat(waiting).isCompleted();
        assertThat(heard.kinds).containsExactly("acquired");
        assertThat(heard.events.get(0).elapsed()).isEqualTo(Duration.ofMillis(250));
        assertThat(heard.events.get(0).waitEnd()).isEqualTo(WaitEnd.NOTICE);
        assertThat(tries("n")).as("the notice was trusted: no second try").isEqualTo(1);
        waiting.join().unlock();
        clock.runPending();
    }

    @Test
    void theFirstTryThatGetsTheLockEndsAnImmediateWait() {
        CompletableFuture<DetachedLock> taken = registry.obtain("n").tryLockAsync(Duration.ofSeconds(10))
                .toCompletableFuture();
        clock.advance(3 * MS);

        assertThat(taken).isCompleted();
        assertThat(heard.events.get(0).elapsed()).isZero();
        assertThat(heard.events.get(0).waitEnd()).isEqualTo(WaitEnd.IMMEDIATE);
        taken.join().unlock();
        clock.runPending();
    }

    @Test
    void atTheExactEndOfTheWaitTheCallTriesNoMoreAndLeavesTheStoresQueue() {
        // one command after the wait at most: leaving the queue, which also tells whether it was handed the lock
        store.tryAcquire("n", "other", 30_000, false, 1_000);
        CompletableFuture<DetachedLock> waiting = registry.obtain("n").tryLockAsync(Duration.ofMillis(100))
                .toCompletableFuture();
        clock.runPending();
        assertThat(store.memory.waitersQueued("n")).isEqualTo(1);

        clock.advance(100 * MS - 1);
        assertThat(waiting).isNotDone();
        clock.advance(1);

        assertThat(waiting).isCompletedWithValue(null);
        assertThat(tries("n")).isEqualTo(1);
        assertThat(store.memory.waitersQueued("n")).as("left the queue").isZero();
        assertThat(store.count("abandon n")).as("nothing left to abandon after leaving").isZero();
    }

    @Test
    void aWaiterWokenByTheHoldersLeaseEndTriesThenAndSaysSo() {
        // the pause before the next try is the holder's lease, plus the millisecond it rounds up
        store.tryAcquire("n", "other", 200, false, 1_000);
        CompletableFuture<DetachedLock> waiting = registry.obtain("n").tryLockAsync(Duration.ofSeconds(10))
                .toCompletableFuture();
        clock.runPending();
        store.memory.delete("n"); // the holder's lease runs out (the store's clock is not the test's)

        long start = clock.nanoTime();
        for (int ms = 0; ms < 300 && !waiting.isDone(); ms++) {
            clock.advance(MS);
        }

        assertThat(waiting).isCompleted();
        // the store's lease left (its clock is the system's) was read as at most 200 ms
        assertThat(clock.nanoTime() - start).isBetween(150 * MS, 201 * MS);
        assertThat(tries("n")).isEqualTo(2);
        assertThat(heard.events.get(0).waitEnd()).isEqualTo(WaitEnd.LEASE_END);
        waiting.join().unlock();
        clock.runPending();
    }

    @Test
    void aSecondCallOfThisRegistryWaitsAtTheLocalGateWhileTheFirstHoldsAndEntersWhenAWaitEndsWithoutTheLock() {
        // one call per name and registry goes to the store at a time; a call that ends without the lock lets the next in
        CompletableFuture<DetachedLock> first = registry.obtain("n").tryLockAsync(Duration.ofSeconds(10))
                .toCompletableFuture();
        clock.runPending();
        assertThat(first).isCompleted();

        CompletableFuture<DetachedLock> second = registry.obtain("n").tryLockAsync(Duration.ofMillis(50))
                .toCompletableFuture();
        clock.runPending();
        assertThat(tries("n")).as("the second waits at the gate").isEqualTo(1);
        clock.advance(50 * MS);
        assertThat(second).isCompletedWithValue(null);

        first.join().unlock();
        clock.runPending();
        CompletableFuture<DetachedLock> third = registry.obtain("n").tryLockAsync(Duration.ZERO)
                .toCompletableFuture();
        clock.runPending();
        assertThat(third).as("the gate is free again").isCompleted();
        assertThat(third.join()).isNotNull();
        third.join().unlock();
        clock.runPending();
    }

    @Test
    void aTryThatGotNoAnswerIsCleanedUpAndOnceMoreASecondLaterWhileANewTokenTries() {
        // the command may have run, and may still run on another connection
        store.failTries.set(1);
        CompletableFuture<DetachedLock> taken = registry.obtain("n").tryLockAsync(Duration.ofSeconds(10))
                .toCompletableFuture();
        for (int ms = 0; ms < 1_500; ms++) {
            clock.advance(MS);
        }

        assertThat(taken).isCompleted();
        String lost = store.triedTokens("n").get(0);
        assertThat(store.triedTokens("n")).hasSize(2);
        assertThat(store.count("abandon n " + lost)).isEqualTo(2);
        taken.join().unlock();
        clock.runPending();
    }

    @Test
    void anInterruptedCallerMakesNoTry() throws Exception {
        // a blocking caller's try goes out on its own thread: a pending interrupt counts first
        EngineFixtures.TestRegistry blocking = EngineFixtures.registry(store, EngineFixtures.settings());
        try {
            Thread.currentThread().interrupt();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> blocking.obtain("b").tryLock(Duration.ofSeconds(1)))
                    .isInstanceOf(InterruptedException.class);
            assertThat(store.count("tryAcquire b")).isZero();
        } finally {
            Thread.interrupted();
            blocking.close();
        }
    }
}
