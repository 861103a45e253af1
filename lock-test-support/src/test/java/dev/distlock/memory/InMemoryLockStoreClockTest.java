package dev.distlock.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockLostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Leases and fencing tokens follow the store's clock, so tests move time instead of waiting. */
class InMemoryLockStoreClockTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryLockStore store = new InMemoryLockStore(clock, Duration.ofMinutes(5));
    private final InMemoryLockRegistry first = InMemoryLockRegistry.builder().store(store).build();
    private final InMemoryLockRegistry second = InMemoryLockRegistry.builder().store(store).build();

    @AfterEach
    void close() {
        first.close();
        second.close();
    }

    @Test
    void aFixedLeaseEndsWhenTheClockPassesIt() throws InterruptedException {
        FencedLock lock = first.obtain("job", Lease.fixed(Duration.ofHours(1)));
        lock.lock();
        assertThat(second.obtain("job").tryLock()).isFalse();

        clock.advance(Duration.ofMinutes(59));
        assertThat(second.obtain("job").tryLock()).isFalse();

        clock.advance(Duration.ofMinutes(1));
        FencedLock next = second.obtain("job");
        assertThat(next.tryLock()).isTrue();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThat(store.heldNames()).containsExactly("job");
        next.unlock();
    }

    @Test
    void fencingTokensComeFromTheClockAndStillGrowWhenTheClockStands() {
        FencedLock lock = first.obtain("fenced");
        lock.lock();
        long firstToken = lock.fencingToken();
        lock.unlock();
        lock.lock();
        long secondToken = lock.fencingToken();
        lock.unlock();

        assertThat(firstToken).isEqualTo(clock.instant().toEpochMilli() * 1000);
        assertThat(secondToken).isEqualTo(firstToken + 1);
    }

    @Test
    void fencingTokensKeepGrowingAfterTheKeptTokenExpired() {
        FencedLock lock = first.obtain("fenced");
        lock.lock();
        long before = lock.fencingToken();
        lock.unlock();

        clock.advance(Duration.ofMinutes(10));
        lock.lock();
        long after = lock.fencingToken();
        lock.unlock();

        assertThat(after).isGreaterThan(before);
    }

    @Test
    void remainingLeaseFollowsTheClock() {
        FencedLock lock = first.obtain("lease", Lease.fixed(Duration.ofSeconds(30)));
        lock.lock();
        clock.advance(Duration.ofSeconds(10));
        assertThat(lock.remainingLease()).isEqualTo(Duration.ofSeconds(20));
        lock.unlock();
    }

    private static final class MutableClock extends Clock {

        private volatile Instant now;

        MutableClock(Instant start) {
            this.now = start;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
