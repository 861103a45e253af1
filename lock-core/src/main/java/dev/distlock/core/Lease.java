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
 *
 * <p>Every lease length, wherever it is given (here, {@code extend}, {@code unlockAfter}, a registry's
 * default), follows the same bounds: at least {@link #MIN} ({@link #MIN_RENEWED} when renewed) and at most
 * {@link #MAX}.
 */
public final class Lease {

    /** The shortest lease: one millisecond. */
    public static final Duration MIN = Duration.ofMillis(1);

    /**
     * The shortest renewed lease: 300 milliseconds. It is renewed every third of its length, and each renewal
     * is a round trip that must land within a quarter of it, also on a busy machine.
     */
    public static final Duration MIN_RENEWED = Duration.ofMillis(300);

    /** The longest lease: 365 days. A longer one is almost certainly a mistake in units. */
    public static final Duration MAX = Duration.ofDays(365);

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
        checkedMillis(duration, "A renewed lease", true);
        return new Lease(duration, true);
    }

    /** A lease of the given length that is never renewed: the key expires after {@code duration}. */
    public static Lease fixed(Duration duration) {
        checkedMillis(duration, "A lease", false);
        return new Lease(duration, false);
    }

    /**
     * Checks a lease length against the bounds and returns it in milliseconds: the one place the bounds live.
     *
     * @param duration the length
     * @param what what the length is, for the message (e.g. {@code "defaultLease"})
     * @param renewed whether it will be renewed (then it must be at least {@link #MIN_RENEWED})
     * @return the length in milliseconds
     * @throws IllegalArgumentException naming {@code what} and the bounds, if it is out of them
     */
    public static long checkedMillis(Duration duration, String what, boolean renewed) {
        Objects.requireNonNull(duration, what);
        String problem = problem(duration, renewed);
        if (problem != null) {
            throw new IllegalArgumentException(what + " " + problem + ", got " + duration);
        }
        return duration.toMillis();
    }

    /**
     * What is wrong with a lease length, e.g. {@code "must be between 1ms and 365 days"}, or {@code null} if
     * nothing: for callers that report problems their own way (startup failures naming a property).
     */
    public static String problem(Duration duration, boolean renewed) {
        Duration min = renewed ? MIN_RENEWED : MIN;
        if (duration.compareTo(min) >= 0 && duration.compareTo(MAX) <= 0) {
            return null;
        }
        return "must be between " + min.toMillis() + "ms and " + MAX.toDays() + " days"
                + (renewed ? " when renewed (it is renewed every third of its length)" : "");
    }

    /** Whether the watchdog renews this lease while the lock is held. */
    public boolean isRenewed() {
        return renewed;
    }

    /** The lease length, or the given default when this lease uses the registry's default. */
    public Duration durationOr(Duration registryDefault) {
        return duration != null ? duration : registryDefault;
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
