package dev.distlock.aop;

import dev.distlock.core.ListenerContext;

/**
 * Tells a {@link dev.distlock.core.LockListener} whether the acquire it hears of on this thread belongs to a
 * {@code @DistributedLock(onTimeout = SKIP)} call, so that metrics record a skip rather than a timeout. A
 * registry reports an acquire's outcome on the acquiring thread, or (non-blocking calls) on one of its own
 * with this mark carried over by {@link #LISTENER_CONTEXT}.
 *
 * @since 0.1.0
 */
public final class SkipOnTimeout {

    private static final ThreadLocal<Boolean> ACQUIRING = new ThreadLocal<>();

    /** Carries the mark from the thread that starts an acquire to the one that reports it; the starter sets it. */
    public static final ListenerContext LISTENER_CONTEXT = new ListenerContext() {

        @Override
        public Object capture() {
            return ACQUIRING.get();
        }

        @Override
        public Scope restore(Object captured) {
            Boolean before = ACQUIRING.get();
            mark((Boolean) captured);
            return () -> mark(before);
        }
    };

    private SkipOnTimeout() {
    }

    private static void mark(Boolean acquiring) {
        if (acquiring != null) {
            ACQUIRING.set(acquiring);
        } else {
            ACQUIRING.remove();
        }
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
