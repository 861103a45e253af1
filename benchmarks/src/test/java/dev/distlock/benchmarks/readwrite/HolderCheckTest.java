package dev.distlock.benchmarks.readwrite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.benchmarks.BenchmarkOptions;
import org.junit.jupiter.api.Test;

/** The harness's count of who is inside a read-write lock: readers together are fine, a writer with anyone is not. */
class HolderCheckTest {

    @Test
    void readersTogetherAndWritersOneAfterAnotherAreNoOverlap() {
        HolderCheck check = new HolderCheck();
        boolean first = check.enter(false);
        boolean second = check.enter(false);
        check.leave(false, first);
        check.leave(false, second);
        boolean writer = check.enter(true);
        check.leave(true, writer);
        boolean next = check.enter(true);
        check.leave(true, next);

        assertThat(check.writerOverlaps()).isZero();
        assertThat(check.mostReaders()).isEqualTo(2);
        assertThat(check.mostWriters()).isEqualTo(1);
    }

    @Test
    void aWriterBesideAReaderIsSeenWhicheverEnteredFirst() {
        HolderCheck check = new HolderCheck();
        boolean reader = check.enter(false);
        boolean writer = check.enter(true);
        check.leave(false, reader); // the reader sees the writer as it leaves
        check.leave(true, writer); // the writer saw the reader as it entered

        assertThat(writer).isTrue();
        assertThat(check.writerOverlaps()).isEqualTo(2);
    }

    @Test
    void twoWritersAtOnceAreSeen() {
        HolderCheck check = new HolderCheck();
        boolean first = check.enter(true);
        boolean second = check.enter(true);
        check.leave(true, second);
        check.leave(true, first); // the other writer has left by now: the overlap was seen by the second alone

        assertThat(second).isTrue();
        assertThat(check.writerOverlaps()).isEqualTo(1);
        assertThat(check.mostWriters()).isEqualTo(2);
    }

    @Test
    void theReadWritePartRunsByDefaultAndByName() {
        assertThat(BenchmarkOptions.defaults().runs(BenchmarkOptions.Part.READWRITE)).isTrue();
        BenchmarkOptions only = BenchmarkOptions.parse("--parts", "readwrite");
        assertThat(only.parts()).containsExactly(BenchmarkOptions.Part.READWRITE);
    }
}
