package dev.distlock.aop;

/**
 * Tells a {@link dev.distlock.core.LockListener} whether the acquire it hears of on this thread belongs to a
 * {@code @DistributedLock(onTimeout = SKIP)} call, so that metrics record a skip rather than a timeout. Lock
 * registries report failed acquires on the acquiring thread.
 *
 * @since 0.1.0
 */
public final class SkipOnTimeout {

    private static final ThreadLocal<Boolean> ACQUIRING = new ThreadLocal<>();

    private SkipOnTimeout() {
    }

    /** Whether a call that skips on timeout is acquiring its lock on this thread now. */
    public static boolean isActive() {
        return ACQUIRING.get() != null;
    }

    /** Runs {@code acquire} marked as the acquire of a call that skips on timeout. */
    static <T, E extends Throwable> T during(LockCallObserver.AcquireAction<T, E> acquire) throws E {
        ACQUIRING.set(Boolean.TRUE);
        try {
            return acquire.run();
        } finally {
            ACQUIRING.remove();
        }
    }
}
