package dev.distlock.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.Grant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A read-write lock as the in-memory store keeps it, on a clock moved by hand: a reader takes one of 2^20 permits, a
 * writer all of them; readers share, a queued writer is not overtaken by later readers, and a writer keeping one
 * permit (a downgrade) lets the queued readers in but no writer, its lease and fencing token unchanged.
 */
class InMemoryReadWriteTest extends MemoryFixtures.StoreOnManualClock {

    private static final int ALL = 1 << 20;

    private AcquireResult read(String token, boolean queue) {
        return store.takePermits("rw", token, 1, ALL, LEASE, queue, WAITER_TIMEOUT);
    }

    private AcquireResult write(String token, boolean queue) {
        return store.takePermits("rw", token, ALL, ALL, LEASE, queue, WAITER_TIMEOUT);
    }

    @Test
    void readersShareTheLockAndAQueuedWriterGetsItWhenTheLastReaderLeavesBeforeLaterReaders() {
        List<Grant> toWriter = grantsTo("rw", "writer");
        List<Grant> toLate = grantsTo("rw", "late");
        long r1 = read("r1", false).fencingToken();
        long r2 = read("r2", false).fencingToken();
        assertThat(r2).isGreaterThan(r1);
        assertThat(write("writer", true).acquired()).isFalse();
        assertThat(read("late", true).acquired()).as("the writer queued first").isFalse();

        store.release("rw", "r1", r1);
        assertThat(toWriter).as("r2 still reads").isEmpty();
        store.release("rw", "r2", r2);
        assertThat(toWriter).singleElement().satisfies(grant -> assertThat(grant.fencingToken()).isGreaterThan(r2));
        assertThat(toLate).isEmpty();
        assertThat(store.permitsInUse("rw")).isEqualTo(ALL);

        long writer = write("writer", true).fencingToken();
        store.release("rw", "writer", writer);
        assertThat(toLate).hasSize(1);
        assertThat(store.inspect("rw").ownerToken()).isEqualTo("late");
    }

    @Test
    void aWriterKeepingOnePermitLetsTheQueuedReadersInButNoWriterWithItsLeaseAndTokenUnchanged() {
        List<Grant> toR1 = grantsTo("rw", "r1");
        List<Grant> toR2 = grantsTo("rw", "r2");
        List<Grant> toW2 = grantsTo("rw", "w2");
        long w = write("w", false).fencingToken();
        read("r1", true);
        read("r2", true);
        write("w2", true);
        clock.advance(1_000);

        assertThat(store.keepPermits("rw", "w", 1)).isTrue();

        assertThat(toR1).hasSize(1);
        assertThat(toR2).hasSize(1);
        assertThat(toW2).isEmpty();
        assertThat(store.permitsInUse("rw")).isEqualTo(3);
        assertThat(store.remainingLeaseMillis("rw", "w")).isEqualTo(LEASE - 1_000);
        assertThat(store.inspect("rw").waiterTokens()).containsExactly("w2");

        assertThat(store.keepPermits("rw", "w", 1)).as("run again").isTrue();
        assertThat(store.keepPermits("rw", "w", 5)).as("more than it holds").isTrue();
        assertThat(store.permitsInUse("rw")).isEqualTo(3);
        assertThat(read("w", false).fencingToken()).isEqualTo(w);
        assertThat(store.keepPermits("rw", "gone", 1)).isFalse();
        assertThat(store.keepPermits("no-such-name", "w", 1)).isFalse();

        clock.advance(LEASE);
        assertThat(store.keepPermits("rw", "w", 1)).as("its lease ran out").isFalse();
    }

    @Test
    void keepingAsManyPermitsAsItHoldsHandsNothingOnEvenWithPermitsFree() {
        List<Grant> toWaiter = grantsTo("rw", "waiter");
        store.takePermits("rw", "keeper", 1, 2, LEASE, false, WAITER_TIMEOUT);
        store.takePermits("rw", "short", 1, 2, 1_000, false, WAITER_TIMEOUT);
        store.takePermits("rw", "waiter", 1, 2, LEASE, true, 5_000);
        clock.advance(1_000); // short's lease ran out: its permit is free, nobody was handed it

        assertThat(store.keepPermits("rw", "keeper", 1)).isTrue();

        assertThat(toWaiter).isEmpty();
        assertThat(store.inspect("rw").waiterTokens()).containsExactly("waiter");
        assertThat(store.permitsInUse("rw")).isOne();
    }
}
