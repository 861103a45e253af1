package dev.distlock.engine;

import static dev.distlock.engine.Registries.PATIENCE;
import static dev.distlock.engine.Registries.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.test.scripted.ScriptedCall;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import dev.distlock.test.scripted.ScriptedLockStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Non-blocking acquisitions whose tries are in flight (sent, not answered yet) while something else happens: a
 * hand-off notice, a cancellation. The store answers on threads of its own, as Lettuce's async API does.
 */
class AsyncAcquisitionFaultsTest extends ScriptedStoreTest {

    @BeforeEach
    void answerAsynchronously() {
        store.answerAsynchronously();
    }

    /**
     * The waiter's try queued it, then the holder released and handed it the lock, and only then did the try's
     * (busy) answer come: the notice that came in between is not lost. With an hour between polls, a lost notice
     * would leave the waiter asleep far past {@link Registries#PATIENCE}.
     */
    @Test
    void aNoticeThatArrivesWhileATryIsInFlightIsNotLost() throws Exception {
        FencedLock holder = registries.process(events).obtain("job");
        FencedLock waiter = registries.process(events, b -> b.maxPollInterval(Duration.ofHours(1))).obtain("job");
        holder.lock();
        ScriptedCall firstTry = store.next(Op.ACQUIRE, "job").holdAfterRunning();
        CompletableFuture<DetachedLock> waiting = waiter.tryLockAsync(Duration.ofHours(1)).toCompletableFuture();
        firstTry.awaitEntered();
        awaitUntil(() -> store.backend().waitersQueued("job") == 1);

        long holderFence = holder.fencingToken();
        holder.unlock(); // hands the lock to the waiter and notifies it, while its try is still unanswered
        firstTry.proceed();

        DetachedLock held = waiting.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(held.fencingToken()).isGreaterThan(holderFence);
        assertThat(held.isHeld()).isTrue();
        held.unlock();
        assertThat(store.backend().isLocked("job")).isFalse();
    }

    /** Cancelled while its try is in flight, and that try took the lock: the lock is given up, not kept. */
    @Test
    void cancellingWhileATryIsInFlightLeavesNothingHeld() throws Exception {
        ScriptedLockRegistry registry = registries.process(events);
        ScriptedCall firstTry = store.next(Op.ACQUIRE, "job").holdAfterRunning();
        CompletableFuture<DetachedLock> pending = registry.obtain("job").tryLockAsync(PATIENCE).toCompletableFuture();
        firstTry.awaitEntered();
        awaitUntil(() -> store.backend().isLocked("job")); // the try in flight took the lock; its answer is held

        assertThat(pending.cancel(true)).isTrue();
        firstTry.proceed();

        awaitUntil(() -> !store.backend().isLocked("job"));
        // if the try's answer came before the cancellation's step ran, the hold it made is released, and the
        // registry lets go of the name once the release is answered: just after the store freed it
        awaitUntil(() -> registry.heldLocks().isEmpty() && registry.trackedNames() == 0);
        assertThat(registries.process(new Events()).obtain("job").tryLock()).isTrue();
    }

    /**
     * When {@code unlockAsync()} completes, the name is free for this registry's next call too: a zero-wait try
     * made right then never finds the local gate still taken (the release's answer comes on a client thread).
     */
    @Test
    void theNameIsFreeForTheNextCallWhenAnAsyncUnlockCompletes() throws Exception {
        FencedLock lock = registries.process(events).obtain("job");
        for (int i = 0; i < 500; i++) {
            DetachedLock held = lock.tryLockAsync(Duration.ZERO).toCompletableFuture()
                    .get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(held).as("zero-wait try %d, made when the previous unlock completed", i).isNotNull();
            held.unlockAsync().toCompletableFuture().get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** An asynchronous release whose reply was lost: the caller hears of it, and the clean-up finishes it. */
    @Test
    void anAsyncUnlockWhoseReplyWasLostFailsAndTheCleanUpFinishesTheRelease() throws Exception {
        FencedLock lock = registries.process(events).obtain("job");
        DetachedLock held = lock.lockAsync().toCompletableFuture().get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        store.next(Op.RELEASE, "job").loseReply(new ScriptedLockStore.CommandTimeout("scripted: no reply in time"));

        CompletableFuture<Void> unlocked = held.unlockAsync().toCompletableFuture();

        assertThat(unlocked).failsWithin(PATIENCE).withThrowableThat()
                .havingRootCause().withMessageContaining("no reply in time");
        assertThat(events.lost).as("a release that may have run is never a loss").isEmpty();
        awaitUntil(() -> !store.backend().isLocked("job"));
    }
}
