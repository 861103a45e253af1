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
 * Readers and writers of one read-write lock as separate JVMs on one real redis-server, killed with SIGKILL or paused
 * with SIGSTOP: a dead writer blocks the name for at most its lease, then the readers queued behind it enter together
 * (and a writer finds them inside); a dead reader holds a queued writer back for at most its lease; a reader or writer
 * paused past its lease finds its hold lost on waking and does not write, and its write in flight carries an older
 * fencing token than the next holder's, which the resource refuses. The name's holders in Redis are the journal: a
 * writer is never listed beside another holder.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ReadWriteProcessFaultsIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final Duration ANSWER = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration SHORT_LEASE = Duration.ofSeconds(2);
    private static final String KEY = "distlock:{catalogue}";

    private final List<LockProcess> processes = new ArrayList<>();
    private final FencingOracle resource = new FencingOracle();

    @AfterEach
    void stopProcesses() {
        processes.forEach(LockProcess::close);
    }

    @RepeatedTest(3)
    void aKilledWritersNameReturnsWithinItsLeaseToTheReadersQueuedTogether() {
        LockProcess writer = start("writer", SHORT_LEASE, "write");
        LockProcess firstReader = start("first-reader", Duration.ofSeconds(30), "read");
        LockProcess secondReader = start("second-reader", Duration.ofSeconds(30), "read");
        LockProcess lateWriter = start("late-writer", Duration.ofSeconds(30), "write");
        long writerFence = writer.acquireAtOnce();
        firstReader.send("lock 60000");
        awaitQueued(1);
        secondReader.send("lock 60000");
        awaitQueued(2);
        assertThat(holders()).as("the writer alone").hasSize(1);

        long killed = System.nanoTime();
        writer.kill();
        long firstFence = LockProcess.fence(firstReader.expect("acquired", ANSWER));
        long secondFence = LockProcess.fence(secondReader.expect("acquired", ANSWER));
        Duration blocked = Duration.ofNanos(System.nanoTime() - killed);

        System.out.println("[reliability] writer killed, lease 2 s: both queued readers inside after "
                + blocked.toMillis() + " ms");
        assertThat(blocked).as("at most the 2 s lease, with slack for a loaded machine")
                .isLessThan(SHORT_LEASE.plusSeconds(5));
        assertThat(List.of(writerFence, firstFence, secondFence)).isSorted().doesNotHaveDuplicates();
        assertThat(holders()).as("two readers in Redis").hasSize(2);
        lateWriter.send("lock 0");
        assertThat(lateWriter.answer(ANSWER)).as("a writer beside the readers").isEqualTo("timeout");
        assertThat(resource.writeBy(firstReader, "first-reader")).isTrue();
        assertThat(resource.writeBy(secondReader, "second-reader")).isTrue();
    }

    @RepeatedTest(3)
    void aKilledReaderHoldsAQueuedWriterBackForAtMostItsLease() {
        LockProcess dying = start("dying-reader", SHORT_LEASE, "read");
        LockProcess reader = start("reader", Duration.ofSeconds(30), "read");
        LockProcess writer = start("writer", Duration.ofSeconds(30), "write");
        long dyingFence = dying.acquireAtOnce();
        long readerFence = reader.acquireAtOnce();
        writer.send("lock 60000");
        awaitQueued(1);

        long killed = System.nanoTime();
        dying.kill();
        reader.send("unlock");
        assertThat(reader.answer(ANSWER)).isEqualTo("released");
        long writerFence = LockProcess.fence(writer.expect("acquired", ANSWER));
        Duration blocked = Duration.ofNanos(System.nanoTime() - killed);

        System.out.println("[reliability] reader killed, lease 2 s: the queued writer got the name after "
                + blocked.toMillis() + " ms");
        assertThat(blocked).isLessThan(SHORT_LEASE.plusSeconds(5));
        assertThat(writerFence).isGreaterThan(Math.max(dyingFence, readerFence));
        assertThat(holders()).as("the writer alone in Redis").hasSize(1);
        assertThat(resource.writeBy(writer, "writer")).isTrue();
    }

    @Test
    void aWriterPausedPastItsLeaseFindsItsHoldLostOnWakingAndItsStaleWriteIsRefused() {
        pausedPastItsLease("write", "read");
    }

    @Test
    void aReaderPausedPastItsLeaseFindsItsHoldLostOnWakingAndItsStaleWriteIsRefused() {
        pausedPastItsLease("read", "write");
    }

    /** A holder of {@code pausedSide} paused past its 1 s lease while a caller of {@code nextSide} waits. */
    private void pausedPastItsLease(String pausedSide, String nextSide) {
        LockProcess holder = start("holder", Duration.ofSeconds(1), pausedSide);
        LockProcess next = start("next", Duration.ofSeconds(30), nextSide);

        PausedPastLease.run(holder, next, resource, () -> awaitQueued(1));

        assertThat(holders()).as("the next holder alone in Redis").hasSize(1);
    }

    // --- helpers ---

    private LockProcess start(String label, Duration lease, String side) {
        LockProcess process = LockProcess.start(label, redis.server().port(), "catalogue", lease, true, POLL, side);
        processes.add(process);
        return process;
    }

    private static void awaitQueued(long waiters) {
        LockProcess.awaitUntil(() -> Long.valueOf(waiters).equals(redis.server().command("LLEN", KEY + ":queue")));
    }

    private static List<String> holders() {
        return PermitHolders.of(redis.server(), KEY);
    }
}
