package dev.distlock.micrometer;

import dev.distlock.aop.SkipOnTimeout;
import dev.distlock.core.LockEvent;
import java.util.Locale;

/** How an acquire call ended: the fixed values of the {@code outcome} tag of {@code distlock.acquire}. */
enum AcquireOutcome {

    ACQUIRED, TIMEOUT, SKIPPED, INTERRUPTED, ERROR;

    final String tagValue = name().toLowerCase(Locale.ROOT);

    /**
     * The outcome of a failed acquire call, read from its error as {@link dev.distlock.core.LockListener} defines
     * it; a timeout of a {@code @DistributedLock(onTimeout = SKIP)} call, told on the acquiring thread, is a skip.
     */
    static AcquireOutcome ofFailure(LockEvent event) {
        Throwable error = event.error();
        if (error == null) {
            return SkipOnTimeout.isActive() ? SKIPPED : TIMEOUT;
        }
        return error instanceof InterruptedException ? INTERRUPTED : ERROR;
    }
}
