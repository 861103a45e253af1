package dev.distlock.micrometer;

import dev.distlock.core.LockEvent;
import java.util.Locale;

/** How an acquire call ended: the fixed values of the {@code outcome} tag of {@code distlock.acquire}. */
enum AcquireOutcome {

    ACQUIRED, TIMEOUT, INTERRUPTED, ERROR;

    final String tagValue = name().toLowerCase(Locale.ROOT);

    /** The outcome of a failed acquire call, read from its error as {@link dev.distlock.core.LockListener} defines it. */
    static AcquireOutcome ofFailure(LockEvent event) {
        Throwable error = event.error();
        if (error == null) {
            return TIMEOUT;
        }
        return error instanceof InterruptedException ? INTERRUPTED : ERROR;
    }
}
