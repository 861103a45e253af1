package dev.distlock.core;

/**
 * Carries what {@link LockListener}s need of the thread that started an acquire call (a thread-local that says
 * what kind of call it is, say) to the thread that reports the call's outcome: a non-blocking acquisition
 * ({@link FencedLock#tryLockAsync}) ends on one of the registry's threads, not on the caller's. A registry
 * {@linkplain #capture() captures} it when a call starts and {@linkplain #restore restores} it around its
 * listeners' calls for that call's acquire events ({@code onAcquired}, {@code onAcquireFailed},
 * {@code onAcquireRetrying}). Register one with the registry's builder; it must be quick and must not fail.
 *
 * @since 0.1.0
 */
public interface ListenerContext {

    /** Carries nothing. */
    ListenerContext NONE = new ListenerContext() {

        @Override
        public Object capture() {
            return null;
        }

        @Override
        public Scope restore(Object captured) {
            return () -> { };
        }
    };

    /** What to carry, read on the thread that starts the call; {@code null} for nothing. */
    Object capture();

    /** Makes {@code captured} current on this thread until the returned scope is closed (then what was before). */
    Scope restore(Object captured);

    /** A restored context, undone by {@link #close()}. */
    interface Scope extends AutoCloseable {

        @Override
        void close();
    }
}
