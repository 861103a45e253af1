package dev.distlock.engine;

import static dev.distlock.engine.Registries.PATIENCE;
import static dev.distlock.engine.Registries.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.test.contract.Background;
import dev.distlock.test.scripted.ScriptedCall;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Hand-offs to waiters that died, were paused or went away: a waiter that is handed the lock must confirm it
 * within a short claim, so a dead one blocks the name for that claim only; a notice read too late is checked
 * with the store; a lease that runs out goes to the first waiter; a closed registry leaves the queue.
 */
class HandOffFaultsTest extends ScriptedStoreTest {

    /** The waiters' poll interval here: their queue entries live 600 ms after each try, and so do claims. */
    private static final Duration POLL = Duration.ofMillis(100);

    /** Issue case 6: a queued waiter's process dies; a release hands it the lock. */
    @Test
    void aWaiterThatDiedAfterQueueingIsHandedTheLockForItsShortClaimOnly() throws Exception {
        FencedLock holder = process().obtain("job");
        holder.lock();
        // the dead waiter asked for a 60 s lease; its process froze in its next poll and never answers again
        ScriptedCall frozen = store.every(Op.ACQUIRE, "job").holdBeforeRunning();
        Background<Boolean> dead = new Background<>("dead", () ->
                process().obtain("job", Lease.fixed(Duration.ofSeconds(60))).tryLock(Duration.ofMinutes(5)));
        frozen.awaitEntered();
        frozen.disarm();
        FencedLock next = process().obtain("job");
        Background<Long> nextWaiter = new Background<>("next", () -> next.tryLock(PATIENCE) ? next.fencingToken() : -1);
        awaitUntil(() -> store.backend().waitersQueued("job") >= 1);

        long released = System.nanoTime();
        holder.unlock();

        assertThat(nextWaiter.get()).as("acquired long before the dead waiter's 60 s lease").isPositive();
        assertThat(Duration.ofNanos(System.nanoTime() - released)).isLessThan(Duration.ofSeconds(30));
        frozen.proceed();
        assertThat(dead.isDone()).isFalse();
    }

    /** Issue case 6: a waiter that stopped asking is dropped from the queue once its entry's deadline passed. */
    @Test
    void aWaiterWhoseEntryWentStaleIsSkippedByTheRelease() throws Exception {
        FencedLock holder = process().obtain("job");
        holder.lock();
        ScriptedCall frozen = store.every(Op.ACQUIRE, "job").holdBeforeRunning();
        Background<Boolean> dead = new Background<>("dead", () -> process().obtain("job").tryLock(Duration.ofMinutes(5)));
        frozen.awaitEntered();
        frozen.disarm();
        awaitUntil(() -> store.backend().waitersQueued("job") == 0);

        holder.unlock();

        assertThat(store.backend().isLocked("job")).as("not handed to the dead waiter").isFalse();
        assertThat(process().obtain("job").tryLock()).isTrue();
        frozen.proceed();
    }

    /**
     * Issue case 4: a waiter paused across its hand-off. The claim ran out and another waiter got the lock;
     * when the paused one reads its notice at last, it must not trust it.
     */
    @Test
    void aWaiterThatReadsItsNoticeTooLateChecksWithTheStoreAndDoesNotHoldWithTheNextOwner() throws Exception {
        pausedAcrossItsHandOff(true);
    }

    /** The same, but the paused waiter's poll is answered before it reads the notice (which is then stale). */
    @Test
    void aWaiterThatReadsANoticeOlderThanItsLastTryIgnoresIt() throws Exception {
        pausedAcrossItsHandOff(false);
    }

    private void pausedAcrossItsHandOff(boolean noticeFirst) throws Exception {
        FencedLock holder = process().obtain("job");
        holder.lock();
        long holderFence = holder.fencingToken();
        FencedLock paused = process().obtain("job");
        Background<Long> pausedWaiter = new Background<>("paused", () -> {
            if (!paused.tryLock(PATIENCE.multipliedBy(2))) {
                return -1L;
            }
            long fence = paused.fencingToken();
            paused.unlock();
            return fence;
        });
        awaitUntil(() -> store.backend().waitersQueued("job") == 1);
        // the paused process: it hears nothing and its next poll does not get out
        store.holdNotices();
        ScriptedCall stalledPoll = store.next(Op.ACQUIRE, "job").holdBeforeRunning();
        stalledPoll.awaitEntered();
        FencedLock other = process().obtain("job");
        CountDownLatch otherHolds = new CountDownLatch(1);
        CountDownLatch otherMayRelease = new CountDownLatch(1);
        Background<Long> otherWaiter = new Background<>("other", () -> {
            if (!other.tryLock(PATIENCE)) {
                return -1L;
            }
            long fence = other.fencingToken();
            otherHolds.countDown();
            otherMayRelease.await(30, TimeUnit.SECONDS);
            other.unlock();
            return fence;
        });

        holder.unlock(); // hands the lock to the paused waiter, whose claim then runs out
        assertThat(otherHolds.await(20, TimeUnit.SECONDS)).as("the other waiter got the lock").isTrue();

        // the paused process wakes up: its notice and its poll arrive late
        if (noticeFirst) {
            store.deliverNotices();
            stalledPoll.proceed();
        } else {
            ScriptedCall nextPoll = store.next(Op.ACQUIRE, "job").holdBeforeRunning();
            stalledPoll.proceed();
            nextPoll.awaitEntered(); // the stalled poll was answered (busy): the waiter sleeps, then polls again
            store.deliverNotices();
            nextPoll.proceed();
        }
        assertThat(pausedWaiter.isDone()).as("the paused waiter does not hold while the other does").isFalse();
        otherMayRelease.countDown();

        long otherFence = otherWaiter.get();
        long pausedFence = pausedWaiter.get();
        assertThat(otherFence).isGreaterThan(holderFence);
        assertThat(pausedFence).as("the paused waiter got the lock after the other one").isGreaterThan(otherFence);
    }

    /** Issue case 9: a lease that ran out with waiters queued goes to the first of them, not to a newcomer. */
    @Test
    void aLeaseThatRanOutGoesToTheFirstWaiterNotToANewcomer() throws Exception {
        FencedLock holder = process().obtain("job", Lease.fixed(Duration.ofMillis(1500)));
        holder.lock();
        // the holder cannot reach the store any more: the lease runs out there, nobody releases it
        store.every(Op.ABANDON, "job").fail(new IllegalStateException("unreachable"));
        // it polls when the holder's lease ends (and its queue entry lives 10 s after each poll)
        FencedLock first = registries.process(events, b -> b.maxPollInterval(Duration.ofSeconds(5))).obtain("job");
        Background<Boolean> firstWaiter = new Background<>("first", () -> {
            boolean acquired = first.tryLock(PATIENCE);
            if (acquired) {
                first.unlock();
            }
            return acquired;
        });
        awaitUntil(() -> store.backend().waitersQueued("job") == 1);
        // the first waiter's next poll is late, so the newcomer finds the lease run out before it does
        ScriptedCall latePoll = store.next(Op.ACQUIRE, "job").holdBeforeRunning();
        latePoll.awaitEntered();
        awaitUntil(() -> !store.backend().heldNames().contains("job"));

        FencedLock newcomer = process().obtain("job");
        assertThat(newcomer.tryLock()).as("the newcomer does not jump the queue").isFalse();

        latePoll.proceed();
        assertThat(firstWaiter.get()).isTrue();
    }

    /** Issue case 9: waiters wake when the holder's lease runs out, not only at their poll interval. */
    @Test
    void waitersWakeWhenTheHoldersLeaseRunsOut() throws Exception {
        FencedLock holder = process().obtain("job", Lease.fixed(Duration.ofMillis(300)));
        holder.lock();
        // nobody releases the lock: only its lease running out in the store frees it
        store.every(Op.ABANDON, "job").fail(new IllegalStateException("unreachable"));
        FencedLock waiter = registries.process(events, b -> b.maxPollInterval(Duration.ofMinutes(1))).obtain("job");

        assertThat(waiter.tryLock(PATIENCE)).as("woken by the end of the holder's lease, not the 1 min poll")
                .isTrue();
        waiter.unlock();
    }

    /** A hand-off gives only a claim lease; the new owner extends it to its full lease at once. */
    @Test
    void theNewOwnerConfirmsAHandOffWithItsFullLease() throws Exception {
        FencedLock holder = process().obtain("job");
        FencedLock waiter = process().obtain("job", Lease.fixed(Duration.ofSeconds(30)));
        holder.lock();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Background<Duration> waiting = new Background<>("waiter", () -> {
            waiter.lock();
            holding.countDown();
            done.await(20, TimeUnit.SECONDS);
            // the confirmation's answer moves the deadline a moment after the store ran it
            awaitUntil(() -> waiter.remainingLease().compareTo(Duration.ofSeconds(10)) > 0);
            Duration left = waiter.remainingLease();
            waiter.unlock();
            return left;
        });
        awaitUntil(() -> store.backend().waitersQueued("job") == 1);

        holder.unlock();
        assertThat(holding.await(20, TimeUnit.SECONDS)).isTrue();
        awaitUntil(() -> store.calls(Op.EXTEND, "job") >= 1);
        done.countDown();

        assertThat(waiting.get()).isGreaterThan(Duration.ofSeconds(10));
        assertThat(events.lost).isEmpty();
    }

    /** {@code close()} takes the registry's waiters out of the queue, so nothing is handed to a closed process. */
    @Test
    void closingARegistryWithdrawsItsWaiters() throws Exception {
        FencedLock holder = process().obtain("job");
        holder.lock();
        ScriptedLockRegistry closing = process();
        Background<Boolean> waiting = new Background<>("waiter", () -> {
            closing.obtain("job").lock();
            return true;
        });
        awaitUntil(() -> store.backend().waitersQueued("job") == 1);

        closing.close();

        assertThatThrownBy(waiting::get).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'job'").hasMessageContaining("registry was closed");
        assertThat(store.backend().waitersQueued("job")).isZero();
        holder.unlock();
        assertThat(store.backend().isLocked("job")).isFalse();
    }

    private ScriptedLockRegistry process() {
        return registries.process(events, b -> b.maxPollInterval(POLL));
    }
}
