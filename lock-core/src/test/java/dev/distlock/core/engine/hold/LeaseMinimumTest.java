package dev.distlock.core.engine.hold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.memory.InMemoryLockRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The shortest lease a hold accepts and the rule that decides whether an acquisition counts agree: every lease
 * that is accepted can be taken, and anything shorter is refused wherever a lease is given.
 */
class LeaseMinimumTest {

    @Test
    void theShortestLeaseLeavesAReplyAtLeastAsLongAsARenewalOfTheShortestRenewedLeaseMayTake() {
        long shortest = Lease.MIN.toMillis();
        long renewalTimeout = HoldClock.renewalTimeoutNanos(Lease.MIN_RENEWED.toMillis());

        assertThat(HoldClock.replyAllowanceNanos(shortest)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(87))
                .isGreaterThanOrEqualTo(renewalTimeout);
        long sent = System.nanoTime();
        long validUntil = HoldClock.validUntil(sent, shortest);
        assertThat(HoldClock.validEnough(validUntil, shortest, sent + HoldClock.replyAllowanceNanos(shortest)))
                .isTrue();
        assertThat(HoldClock.validEnough(validUntil, shortest, sent + HoldClock.replyAllowanceNanos(shortest) + 1))
                .isFalse();
    }

    @Test
    void theShortestFixedLeaseIsTakenByOneTryAndByATimedTryOnAFreeName() throws Exception {
        try (InMemoryLockRegistry registry = InMemoryLockRegistry.builder().build()) {
            // a registry's first acquisition loads the engine's classes, which on a busy machine takes longer than
            // the 87ms a reply to the shortest lease may take: warm it up, as a running application is
            FencedLock warmUp = registry.obtain("warm-up");
            warmUp.lock();
            warmUp.unlock();
            FencedLock once = registry.obtain("once", Lease.fixed(Lease.MIN));
            FencedLock timed = registry.obtain("timed", Lease.fixed(Lease.MIN));

            // not released: on a busy machine the 100ms may be over before an unlock, which is not the point here
            assertThat(once.tryLock()).as("tryLock()").isTrue();
            assertThat(timed.tryLock(Duration.ofMillis(300))).as("tryLock(300ms)").isTrue();
        }
    }

    @Test
    void anExtendBelowTheShortestLeaseIsRefusedNamingTheLockAndWhatIsAllowed() {
        try (InMemoryLockRegistry registry = InMemoryLockRegistry.builder().build()) {
            FencedLock lock = registry.obtain("job", Lease.fixed(Duration.ofSeconds(5)));
            lock.lock();

            assertThatThrownBy(() -> lock.extend(Duration.ofMillis(2))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Lock 'job'").hasMessageContaining("between 100ms and 365 days");
            assertThat(lock.remainingLease()).as("the lease is untouched").isGreaterThan(Duration.ofSeconds(1));

            lock.extend(Lease.MIN);
            assertThat(lock.remainingLease()).isLessThanOrEqualTo(Lease.MIN);
            lock.unlock();
        }
    }

    @Test
    void anUnlockAfterDelayIsNoLeaseAndMayBeAsShortAsAMillisecond() {
        try (InMemoryLockRegistry registry = InMemoryLockRegistry.builder().build()) {
            FencedLock lock = registry.obtain("job", Lease.fixed(Duration.ofSeconds(5)));
            lock.lock();

            lock.unlockAfter(Duration.ofMillis(1));

            assertThat(lock.isHeldByCurrentThread()).isFalse();
        }
    }
}
