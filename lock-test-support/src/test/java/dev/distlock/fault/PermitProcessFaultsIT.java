package dev.distlock.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Permit holders of one semaphore as separate JVMs on one real redis-server, killed with SIGKILL or paused with
 * SIGSTOP: a dead holder's permit comes back within its lease and goes to the waiter queued for it, never beside
 * more holders than permits (judged by the semaphore's holders in Redis); a holder paused past its lease finds its
 * permit lost when it runs again and does not write, and a write it had in flight carries an older fencing token
 * than the next holder's, which the resource refuses.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PermitProcessFaultsIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final Duration ANSWER = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final String KEY = "distlock:{supplier}";

    private final List<LockProcess> processes = new ArrayList<>();
    private final FencingOracle resource = new FencingOracle();

    @AfterEach
    void stopProcesses() {
        processes.forEach(LockProcess::close);
    }

    @RepeatedTest(3)
    void aKilledHoldersPermitReturnsWithinItsLeaseToTheQueuedWaiterAndNoMoreThanThePermitsAreHeld() {
        LockProcess first = start("first", Duration.ofSeconds(2), 2);
        LockProcess second = start("second", Duration.ofSeconds(2), 2);
        LockProcess waiter = start("waiter", Duration.ofSeconds(30), 2);
        long firstFence = first.acquireAtOnce();
        long secondFence = second.acquireAtOnce();
        waiter.send("lock 60000");
        LockProcess.awaitUntil(() -> Long.valueOf(1).equals(redis.server().command("LLEN", KEY + ":queue")));
        assertThat(holders()).hasSize(2);

        long killed = System.nanoTime();
        first.kill();
        long waiterFence = LockProcess.fence(waiter.expect("acquired", ANSWER));
        Duration blocked = Duration.ofNanos(System.nanoTime() - killed);

        System.out.println("[reliability] permit holder killed, lease 2 s: the waiter got the permit after "
                + blocked.toMillis() + " ms");
        assertThat(blocked).as("at most the 2 s lease, with slack for a loaded machine")
                .isLessThan(Duration.ofSeconds(2).plusSeconds(5));
        assertThat(waiterFence).isGreaterThan(Math.max(firstFence, secondFence));
        assertThat(holders()).as("the semaphore's holders in Redis").hasSize(2);
        second.send("write");
        assertThat(second.answer(ANSWER)).isEqualTo("write " + secondFence);
    }

    @Test
    void aHolderPausedPastItsLeaseFindsThePermitLostOnWakingAndItsStaleWriteIsRefused() {
        LockProcess holder = start("holder", Duration.ofSeconds(1), 1);
        LockProcess next = start("next", Duration.ofSeconds(30), 1);

        PausedPastLease.run(holder, next, resource, () -> LockProcess.awaitUntil(
                () -> Long.valueOf(1).equals(redis.server().command("LLEN", KEY + ":queue"))));

        assertThat(holders()).hasSize(1);
    }

    // --- helpers ---

    private LockProcess start(String label, Duration lease, int permits) {
        LockProcess process = LockProcess.start(label, redis.server().port(), "supplier", lease, true, POLL,
                Integer.toString(permits));
        processes.add(process);
        return process;
    }

    private static List<String> holders() {
        return PermitHolders.of(redis.server(), KEY);
    }
}
