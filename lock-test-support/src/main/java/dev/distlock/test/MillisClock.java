package dev.distlock.test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A UTC {@link Clock} that reads epoch milliseconds from somewhere else: how an in-memory store on a test's or a
 * simulation's time sees that time.
 */
public final class MillisClock extends Clock {

    private final LongSupplier epochMillis;

    private MillisClock(LongSupplier epochMillis) {
        this.epochMillis = epochMillis;
    }

    /** A clock whose time is {@code epochMillis}' answer, in UTC. */
    public static Clock of(LongSupplier epochMillis) {
        return new MillisClock(Objects.requireNonNull(epochMillis, "epochMillis"));
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    /** Only UTC: the clock is this one whatever the zone asked for. */
    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public long millis() {
        return epochMillis.getAsLong();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }
}
