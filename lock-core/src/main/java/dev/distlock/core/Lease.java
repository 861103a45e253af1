package dev.distlock.core;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a hold lives in the backend if its holder stops releasing it (crash, pause, lost network).
 *
 * <ul>
 *   <li>{@link #renewed()} (the default): a lease of the registry's default length that the watchdog renews
 *   every third of the lease while the lock is held, so work may take as long as it needs and a crashed
 *   holder blocks others for at most one lease;</li>
 *   <li>{@link #fixed(Duration)}: the key simply expires after the given time; the holder must finish
 *   before then, and learns at {@code unlock()} if it did not.</li>
 * </ul>
 */
public final class Lease {

    private static final Lease RENEWED_DEFAULT = new Lease(null, true);

    private final Duration duration;
    private final boolean renewed;

    private Lease(Duration duration, boolean renewed) {
        this.duration = duration;
        this.renewed = renewed;
    }

    /** A lease of the registry's default length, renewed by the watchdog while held. */
    public static Lease renewed() {
        return RENEWED_DEFAULT;
    }

    /** A lease of the given length, renewed by the watchdog every third of it while held. */
    public static Lease renewed(Duration duration) {
        return new Lease(requirePositive(duration), true);
    }

    /** A lease of the given length that is never renewed: the key expires after {@code duration}. */
    public static Lease fixed(Duration duration) {
        return new Lease(requirePositive(duration), false);
    }

    /** Whether the watchdog renews this lease while the lock is held. */
    public boolean isRenewed() {
        return renewed;
    }

    /** The lease length, or the given default when this lease uses the registry's default. */
    public Duration durationOr(Duration registryDefault) {
        return duration != null ? duration : registryDefault;
    }

    private static Duration requirePositive(Duration duration) {
        Objects.requireNonNull(duration, "lease duration");
        if (duration.toMillis() < 1) {
            throw new IllegalArgumentException("A lease must be at least 1ms, got " + duration);
        }
        return duration;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Lease lease && renewed == lease.renewed && Objects.equals(duration, lease.duration);
    }

    @Override
    public int hashCode() {
        return Objects.hash(duration, renewed);
    }

    @Override
    public String toString() {
        String length = duration != null ? duration.toString() : "default";
        return renewed ? "renewed lease of " + length : "fixed lease of " + length;
    }
}
