package dev.distlock.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Holders and waiters as separate JVMs on one real redis-server, killed with SIGKILL or paused with SIGSTOP
 * across their lease and across a hand-off, judged by a resource that refuses stale fencing tokens: no two
 * holders overlap beyond a pause longer than the lease (which the fencing token covers), every loss is
 * reported, and a name nobody can use is free again within a stated bound.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ProcessFaultsIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final Duration ANSWER = Duration.ofSeconds(30);
    private static final Duration DEFAULT_POLL = Duration.ofMillis(500);
    private static final String QUEUE = "distlock:{job}:queue";

    private final List<LockProcess> processes = new ArrayList<>();
    private final FencingOracle resource = new FencingOracle();

    @AfterEach
    void stopProcesses() {
        processes.forEach(LockProcess::close);
    }

    /** A holder that dies blocks the name until its lease runs out, and no longer. */
    @Test
    void aHolderKilledWhileHoldingBlocksTheNameForAtMostItsLease() {
        LockProcess holder = start("holder", Duration.ofSeconds(2), true, DEFAULT_POLL);
        LockProcess waiter = start("waiter", Duration.ofSeconds(30), true, DEFAULT_POLL);
        long holderFence = holder.acquireAtOnce();
        waiter.send("lock 60000");
        awaitQueued(1);

        long killed = System.nanoTime();
        holder.kill();
        long waiterFence = LockProcess.fence(waiter.expect("acquired", ANSWER));
        Duration blocked = Duration.ofNanos(System.nanoTime() - killed);

        report("holder killed, lease 2 s: name blocked for " + blocked.toMillis() + " ms");
        assertThat(blocked).as("at most the 2 s lease, with slack for a loaded machine")
                .isLessThan(Duration.ofSeconds(2).plusSeconds(5));
        assertThat(waiterFence).isGreaterThan(holderFence);
    }

    /**
     * A holder paused longer than its lease: the next holder gets the lock when the lease runs out; the paused
     * one reports the loss as soon as it runs again and does not write; a write it had in flight carries the
     * older fencing token and is refused.
     */
    @Test
    void aHolderPausedPastItsLeaseReportsTheLossOnWakingAndItsStaleWriteIsRefused() {
        LockProcess holder = start("holder", Duration.ofSeconds(1), true, DEFAULT_POLL);
        LockProcess next = start("next", Duration.ofSeconds(30), true, DEFAULT_POLL);

        PausedPastLease.run(holder, next, resource, () -> awaitQueued(1));

        holder.send("unlock");
        assertThat(holder.answer(ANSWER)).startsWith("lost");
        report("holder paused past its 1 s lease: " + resource.journal());
    }

    /** Issue case 6: a waiter that dies while queued blocks the name for about two seconds, not a lease. */
    @Test
    void aWaiterKilledWhileQueuedBlocksTheNameForAboutTwoSecondsNotALease() {
        LockProcess holder = start("holder", Duration.ofSeconds(30), true, DEFAULT_POLL);
        LockProcess dead = start("dead", Duration.ofSeconds(60), true, DEFAULT_POLL);
        LockProcess next = start("next", Duration.ofSeconds(30), true, DEFAULT_POLL);
        holder.acquireAtOnce();
        dead.send("lock 60000");
        awaitQueued(1);
        next.send("lock 60000");
        awaitQueued(2);

        dead.kill();
        long released = System.nanoTime();
        holder.send("unlock");
        holder.expect("released", ANSWER);
        next.expect("acquired", ANSWER);
        Duration blocked = Duration.ofNanos(System.nanoTime() - released);

        report("waiter killed while queued (lease 60 s, default poll): name blocked for " + blocked.toMillis() + " ms");
        assertThat(blocked).as("about two seconds, far below the dead waiter's 60 s lease")
                .isLessThan(Duration.ofSeconds(10));
    }

    /**
     * Issue case 4: a queued waiter paused across its hand-off. Its claim runs out and the next waiter gets
     * the lock; the paused waiter, woken, does not trust its late notice, so it never holds together with the
     * next owner, and gets the lock after it, with a larger fencing token.
     */
    @RepeatedTest(3)
    void aWaiterPausedAcrossItsHandOffNeverHoldsTogetherWithTheNextOwner() {
        Duration poll = Duration.ofMillis(200);
        LockProcess holder = start("holder", Duration.ofSeconds(30), true, poll);
        LockProcess paused = start("paused", Duration.ofSeconds(30), true, poll);
        LockProcess next = start("next", Duration.ofSeconds(30), true, poll);
        holder.acquireAtOnce();
        paused.send("lock 60000");
        awaitQueued(1);
        next.send("lock 60000");
        awaitQueued(2);

        paused.pause();
        holder.send("unlock");
        holder.expect("released", ANSWER);
        long nextFence = LockProcess.fence(next.expect("acquired", ANSWER));
        assertThat(resource.writeBy(next, "next")).isTrue();
        paused.resume();

        // woken, it reads its old notice and asks Redis, which says the lock is the next owner's
        Duration grace = Duration.ofSeconds(2);
        long deadline = System.nanoTime() + grace.toNanos();
        while (System.nanoTime() < deadline && !paused.hasAnswer()) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        if (paused.hasAnswer()) {
            throw new AssertionError("the paused waiter answered while the next owner holds: " + paused.answer(ANSWER));
        }
        assertThat(resource.writeBy(next, "next")).isTrue();
        next.send("unlock");
        next.expect("released", ANSWER);

        long pausedFence = LockProcess.fence(paused.expect("acquired", ANSWER));
        assertThat(resource.writeBy(paused, "paused")).isTrue();
        assertThat(pausedFence).isGreaterThan(nextFence);
        assertThat(resource.journal()).noneMatch(entry -> entry.startsWith("refused"));
    }

    // --- helpers ---

    private LockProcess start(String label, Duration lease, boolean renewed, Duration poll) {
        LockProcess process = LockProcess.start(label, redis.server().port(), "job", lease, renewed, poll);
        processes.add(process);
        return process;
    }

    private static void awaitQueued(long waiters) {
        LockProcess.awaitUntil(() -> Long.valueOf(waiters).equals(redis.server().command("LLEN", QUEUE)));
    }

    /** Figures for docs/RELIABILITY.md, in the test output. */
    private static void report(String figure) {
        System.out.println("[reliability] " + figure);
    }
}
