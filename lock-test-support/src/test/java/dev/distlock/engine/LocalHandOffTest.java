package dev.distlock.engine;

import static dev.distlock.engine.Registries.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockBackendException;
import dev.distlock.test.contract.Background;
import dev.distlock.test.scripted.ScriptedCall;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import dev.distlock.test.scripted.ScriptedLockStore.CommandTimeout;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import dev.distlock.test.scripted.ScriptedLockStore.TransientFailure;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A release that hands the lock to the next caller of the same registry waiting at the name sends that caller's first
 * try with it, in one store call ({@code passOn}), as the Redis store does: one call per local hand-off, the next
 * caller holding with a larger fencing token; when the call gets no reply, is refused, or the next caller goes away
 * while it is in flight, nothing is left behind and nobody holds twice.
 */
class LocalHandOffTest extends ScriptedStoreTest {

    @BeforeEach
    void passInOneCall() {
        store.passInOneCall();
    }

    @Test
    void aReleaseWithACallerWaitingAtTheNameHandsItTheLockInOneCall() throws Exception {
        HeldWithNextWaiting held = heldWithNextWaiting();

        held.first().unlock();

        assertThat(held.next().get()).as("the next caller's fencing token").isGreaterThan(held.firstToken());
        assertThat(store.calls(Op.PASS_ON, "job")).isEqualTo(1);
        assertThat(store.calls(Op.ACQUIRE, "job")).as("tries: the next caller's went with the release").isEqualTo(1);
        assertThat(store.calls(Op.RELEASE, "job")).as("the next caller's own release, nobody waiting").isEqualTo(1);
        assertThat(store.backend().isLocked("job")).isFalse();
    }

    @Test
    void aHandOffWhoseReplyIsLostFailsTheReleaseButTheNextCallerStillGetsTheLockAndNothingIsLeft() throws Exception {
        HeldWithNextWaiting held = heldWithNextWaiting();
        store.next(Op.PASS_ON, "job").loseReply(new CommandTimeout("no reply"));

        assertThatThrownBy(held.first()::unlock).isInstanceOf(LockBackendException.class);

        assertThat(held.next().get()).as("the next caller, with a token of its own").isGreaterThan(held.firstToken());
        awaitUntil(() -> !store.backend().isLocked("job") && store.backend().waitersQueued("job") == 0);
    }

    /**
     * A refused hand-off lets the next caller in to try by itself (it cannot leave while it is handed on, so a refusal
     * that lasts must not keep it), and the release is sent again alone, for as long as the store refuses it.
     */
    @Test
    void aRefusedHandOffLetsTheNextCallerTryByItselfWhileTheReleaseIsSentAgain() throws Exception {
        HeldWithNextWaiting held = heldWithNextWaiting();
        store.next(Op.PASS_ON, "job").fail(new TransientFailure("TRYAGAIN"));
        for (int i = 0; i < 5; i++) {
            store.next(Op.RELEASE, "job").fail(new TransientFailure("TRYAGAIN"));
        }

        held.first().unlock();

        assertThat(held.next().get()).isGreaterThan(held.firstToken());
        assertThat(store.calls(Op.PASS_ON, "job")).isEqualTo(1);
        assertThat(store.calls(Op.RELEASE, "job")).as("5 refused, the first's, the next caller's").isEqualTo(7);
        assertThat(store.backend().isLocked("job")).isFalse();
    }

    /** The next caller is interrupted while the hand-off is in flight: the lock it was handed is let go. */
    @Test
    void aCallerThatGoesAwayWhileItsHandOffIsInFlightLeavesNothingBehind() throws Exception {
        ScriptedLockRegistry registry = registries.process(events);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicLong firstToken = new AtomicLong();
        Background<Void> first = new Background<>("first", () -> {
            FencedLock lock = registry.obtain("job");
            lock.lock();
            firstToken.set(lock.fencingToken());
            held.countDown();
            letGo.await();
            lock.unlock();
            return null;
        });
        assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
        Background<Boolean> next = new Background<>("next", () -> {
            registry.obtain("job").lockInterruptibly();
            return true;
        });
        awaitBlocked(next);
        ScriptedCall handOff = store.next(Op.PASS_ON, "job").holdAfterRunning();

        letGo.countDown();
        handOff.awaitEntered();
        awaitUntil(() -> store.backend().inspect("job").fencingToken() > firstToken.get()); // ran: the next token holds
        next.interruptWhenBlocked();
        assertThatThrownBy(next::get).isInstanceOf(InterruptedException.class);
        handOff.proceed();
        first.get();

        awaitUntil(() -> !store.backend().isLocked("job"));
        FencedLock third = registry.obtain("job");
        assertThat(third.tryLock()).as("the name is free for the next call").isTrue();
        third.unlock();
    }

    @Test
    void aNonBlockingReleaseHandsTheLockToTheNextNonBlockingCallerInOneCall() throws Exception {
        store.answerAsynchronously();
        ScriptedLockRegistry registry = registries.process(events);
        DetachedLock first = registry.obtain("job").lockAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
        CompletableFuture<DetachedLock> next = registry.obtain("job").lockAsync().toCompletableFuture();
        assertThat(next).isNotDone();

        first.unlockAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
        DetachedLock handedOver = next.get(10, TimeUnit.SECONDS);

        assertThat(handedOver.fencingToken()).isGreaterThan(first.fencingToken());
        assertThat(store.calls(Op.PASS_ON, "job")).isEqualTo(1);
        assertThat(store.calls(Op.ACQUIRE, "job")).isEqualTo(1);
        handedOver.unlockAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(store.backend().isLocked("job")).isFalse();
    }

    /** The first caller's hold, and the next caller (another thread of its registry) waiting at the name's gate. */
    private record HeldWithNextWaiting(FencedLock first, long firstToken, Background<Long> next) {
    }

    /** The main thread holds "job"; another thread of the same registry waits for it, to lock, then unlock. */
    private HeldWithNextWaiting heldWithNextWaiting() {
        ScriptedLockRegistry registry = registries.process(events);
        FencedLock first = registry.obtain("job");
        first.lock();
        Background<Long> next = new Background<>("next", () -> {
            FencedLock lock = registry.obtain("job");
            lock.lock();
            try {
                return lock.fencingToken();
            } finally {
                lock.unlock();
            }
        });
        awaitBlocked(next);
        return new HeldWithNextWaiting(first, first.fencingToken(), next);
    }

    /** Waits until the background work is parked: at the name's gate, behind the holder. */
    private static void awaitBlocked(Background<?> work) {
        awaitUntil(() -> work.thread().getState() == Thread.State.WAITING
                || work.thread().getState() == Thread.State.TIMED_WAITING);
    }
}
