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
 * <p>Every lease of a hold, wherever it is given (here, {@code extend}, a registry's default, a property or an
 * annotation), follows the same bounds: at least {@link #MIN} ({@link #MIN_RENEWED} when renewed) and at most
 * {@link #MAX}. A time the backend keeps a key after the hold ends ({@code unlockAfter}, a fence retention) is
 * not a lease anything is trusted on: it may be as short as 1ms ({@link #checkedExpiryMillis}).
 */
public final class Lease {

    /**
     * The shortest lease: 100 milliseconds. An acquisition counts only if its reply leaves a tenth of the lease
     * before the hold's local deadline, which is the lease less a drift margin of 1% + 2ms (the rule Redlock uses);
     * at 100ms that lets the reply take up to 87ms, more than the 75ms a renewal of the shortest renewed lease
     * ({@link #MIN_RENEWED}) may take, and a hand-off's claim (never longer than the lease) may be read up to 47ms
     * late and still be trusted. A shorter lease would leave a reply too little time to count: at 2ms or less it would
     * have to come back in no time at all (the drift margin and the tenth take the whole lease), at 5ms within 2ms.
     */
    public static final Duration MIN = Duration.ofMillis(100);

    /**
     * The shortest renewed lease: 300 milliseconds. It is renewed every third of its length, and each renewal
     * is a round trip that must land within a quarter of it, also on a busy machine.
     */
    public static final Duration MIN_RENEWED = Duration.ofMillis(300);

    /** The longest lease: 365 days. A longer one is almost certainly a mistake in units. */
    public static final Duration MAX = Duration.ofDays(365);

    /** The shortest time the backend keeps a key that no hold counts on: a millisecond, its resolution. */
    private static final Duration MIN_EXPIRY = Duration.ofMillis(1);

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
     * What is wrong with a lease length, e.g. {@code "must be between 100ms and 365 days (...)"}, or {@code null}
     * if nothing: for callers that report problems their own way (startup failures naming a property).
     */
    public static String problem(Duration duration, boolean renewed) {
        Duration min = renewed ? MIN_RENEWED : MIN;
        if (duration.compareTo(min) >= 0 && duration.compareTo(MAX) <= 0) {
            return null;
        }
        String bounds = "must be between " + min.toMillis() + "ms and " + MAX.toDays() + " days";
        if (renewed) {
            return bounds + " when renewed (it is renewed every third of its length)";
        }
        return duration.compareTo(min) < 0
                ? bounds + " (a shorter lease leaves an acquisition's reply too little time to count: it must leave "
                        + "a tenth of the lease after a drift margin of 1% + 2ms)"
                : bounds;
    }

    /**
     * Checks how long the backend is to keep a key that no hold counts on any more (the delay of
     * {@code unlockAfter}, a fence retention): 1ms, the backend's resolution, to {@link #MAX}.
     *
     * @param duration the length
     * @param what what the length is, for the message (e.g. {@code "fenceRetention"})
     * @return the length in milliseconds
     * @throws IllegalArgumentException naming {@code what} and the bounds, if it is out of them
     */
    public static long checkedExpiryMillis(Duration duration, String what) {
        Objects.requireNonNull(duration, what);
        if (duration.compareTo(MIN_EXPIRY) < 0 || duration.compareTo(MAX) > 0) {
            throw new IllegalArgumentException(what + " must be between " + MIN_EXPIRY.toMillis() + "ms and "
                    + MAX.toDays() + " days, got " + duration);
        }
        return duration.toMillis();
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
