package dev.distlock.memory;

import dev.distlock.core.spi.Grant;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The one place where the tests of this package build in-memory stores, on a clock they move by hand. */
final class MemoryFixtures {

    /** The fencing-token count's retention of {@link #store}. */
    static final Duration RETENTION = Duration.ofMinutes(10);

    private MemoryFixtures() {
    }

    /** A store on {@code clock}, its fencing-token counts kept {@link #RETENTION}. */
    static InMemoryLockStore store(ManualClock clock) {
        return new InMemoryLockStore(clock, RETENTION);
    }

    /** The base of this package's store tests: a store on a clock standing at {@link #T0} until moved. */
    abstract static class StoreOnManualClock {

        static final long T0 = 1_700_000_000_000L;
        static final long LEASE = 10_000;
        static final long WAITER_TIMEOUT = 2_000;

        final ManualClock clock = new ManualClock(T0);
        final InMemoryLockStore store = store(clock);

        /** The hand-off notices {@code token} will hear for {@code name}, as they come. */
        List<Grant> grantsTo(String name, String token) {
            List<Grant> grants = new CopyOnWriteArrayList<>();
            store.await(name, token, grants::add);
            return grants;
        }
    }

    /** A clock that stands still until moved. */
    static final class ManualClock extends Clock {

        private volatile long millis;

        ManualClock(long millis) {
            this.millis = millis;
        }

        void advance(long by) {
            millis += by;
        }

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
