package dev.distlock.aop;

import dev.distlock.core.WaitEnd;
import dev.distlock.core.HoldKind;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Locale;

/**
 * Watches the calls of {@link dev.distlock.annotation.DistributedLock @DistributedLock} methods: the
 * acquire and then the hold. The Micrometer {@code Observation} binding implements it; this package stays
 * free of Micrometer. Implementations must be thread-safe and quick.
 *
 * @since 0.1.0
 */
public interface LockCallObserver {

    /** Observes nothing. */
    LockCallObserver NONE = (label, key, method) -> Acquiring.NONE;

    /** One observer telling each of {@code observers}, in their order (the first one's observation outermost). */
    static LockCallObserver of(List<? extends LockCallObserver> observers) {
        return switch (observers.size()) {
            case 0 -> NONE;
            case 1 -> observers.get(0);
            default -> new CompositeLockCallObserver(List.copyOf(observers));
        };
    }

    /**
     * A call is about to try its lock.
     *
     * @param label the lock's label (low cardinality)
     * @param key the evaluated lock name (high cardinality)
     * @param method the annotated method
     * @return what follows the acquire
     */
    Acquiring acquiring(String label, String key, Method method);

    /**
     * A call is about to try its lock, or the {@code kind} of hold it declares (permits, a read or a write); the
     * default observes it as {@link #acquiring(String, String, Method)} does.
     *
     * @param kind what the call holds of its name
     * @since 0.1.0
     */
    default Acquiring acquiring(String label, String key, Method method, HoldKind kind) {
        return acquiring(label, key, method);
    }

    /**
     * How an acquire ended: the one set of outcomes for every report of it. The registry's listeners learn all but
     * {@link #SKIPPED}, which only the annotated call knows of; {@link Acquiring#missed} gets all but
     * {@link #ACQUIRED}.
     */
    enum AcquireOutcome {

        /** The lock was acquired. */
        ACQUIRED,

        /** The wait ran out and the call failed. */
        TIMEOUT,

        /** The wait ran out and the call returned without running the method ({@code onTimeout = SKIP}). */
        SKIPPED,

        /** The thread was interrupted while waiting, or the waiting call was cancelled. */
        INTERRUPTED,

        /** The backend failed. */
        ERROR;

        /** The value for tags: the name in lower case. */
        public String tagValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How a hold ended. */
    enum HoldEnd {

        /** Released by the call. */
        RELEASED,

        /** Found lost at the release: the lease expired or another owner took the lock. */
        LOST,

        /** The release failed in the backend; the key expires with its lease. */
        RELEASE_FAILED;

        /** The value for tags: the name in lower case. */
        public String tagValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One acquire in progress. */
    interface Acquiring {

        /** Observes nothing. */
        Acquiring NONE = new Acquiring() {

            @Override
            public Holding acquired(long fencingToken) {
                return Holding.NONE;
            }

            @Override
            public void missed(AcquireOutcome outcome, Throwable error) {
            }
        };

        /**
         * Runs {@code acquire} as the current observation of this thread (for tracing), and returns what it did.
         */
        default <T, E extends Throwable> T around(AcquireAction<T, E> acquire) throws E {
            return acquire.run();
        }

        /** The lock was acquired; returns the observer of the hold that starts now. */
        Holding acquired(long fencingToken);

        /**
         * The lock was acquired, its wait having ended as {@code waitEnd} ({@code null} if not known); returns the
         * observer of the hold that starts now. By default, {@link #acquired(long)}.
         */
        default Holding acquired(long fencingToken, WaitEnd waitEnd) {
            return acquired(fencingToken);
        }

        /** The acquire ended without the lock; {@code error} is the failure, if any. */
        void missed(AcquireOutcome outcome, Throwable error);
    }

    /** One hold in progress. */
    interface Holding {

        /** Observes nothing. */
        Holding NONE = new Holding() {

            @Override
            public void ended(HoldEnd end, Throwable methodFailure) {
            }
        };

        /** Runs the method as the current observation of this thread, so that its spans are children. */
        default Object around(MethodInvoker method) throws Throwable {
            return method.invoke();
        }

        /** The hold ended; {@code methodFailure} is what the method threw, if anything. */
        void ended(HoldEnd end, Throwable methodFailure);
    }

    /** The acquire that {@link Acquiring#around} runs. */
    @FunctionalInterface
    interface AcquireAction<T, E extends Throwable> {

        /** Tries the lock. */
        T run() throws E;
    }
}
