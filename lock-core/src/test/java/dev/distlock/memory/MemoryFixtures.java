package dev.distlock.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

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
