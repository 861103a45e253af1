package dev.distlock.core.engine.hold;

import dev.distlock.core.engine.runtime.EngineRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The first looks of new holds whose first look is far away (a renewal a third into a lease of seconds), planned
 * together a little later by one timer task: most holds end long before their first look, and one that ends before
 * the plan costs no timer task of its own. A hold still active when the plan runs gets its look at the moment it was
 * due, as if planned at once; an ended one is skipped (and kept for at most {@link #PLAN_NANOS} meanwhile).
 */
final class FirstLooks {

    /** How long after a hold starts its first look is planned. */
    static final long PLAN_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** A first look due sooner than this after the start is planned at once. */
    static final long AT_ONCE_NANOS = 4 * PLAN_NANOS;

    private final Watchdog watchdog;
    private final EngineRuntime runtime;
    /** The holds waiting for the plan, and an empty list the plan swaps in (no list made per plan). Guarded by this. */
    private List<Hold> waiting = new ArrayList<>();
    private List<Hold> spare = new ArrayList<>();
    private boolean planned;

    FirstLooks(Watchdog watchdog, EngineRuntime runtime) {
        this.watchdog = watchdog;
        this.runtime = runtime;
    }

    /** Whether a first look due after {@code delayNanos} waits for the plan rather than a timer task of its own. */
    static boolean waits(long delayNanos) {
        return delayNanos >= AT_ONCE_NANOS;
    }

    /** {@code hold} gets its first look planned with the others, within {@link #PLAN_NANOS}. */
    void add(Hold hold) {
        synchronized (this) {
            if (waiting == null) { // a plan runs and has not given its list back yet
                waiting = new ArrayList<>();
            }
            waiting.add(hold);
            if (planned) {
                return;
            }
            planned = true;
        }
        try {
            runtime.schedule(this::plan, PLAN_NANOS);
        } catch (RejectedExecutionException closed) {
            // the registry is closed: its holds expire with their leases
        }
    }

    private void plan() {
        List<Hold> holds;
        synchronized (this) {
            holds = waiting;
            waiting = spare;
            spare = null;
            planned = false;
        }
        for (Hold hold : holds) {
            watchdog.watch(hold); // nothing for a hold that ended meanwhile
        }
        holds.clear();
        synchronized (this) {
            spare = holds;
        }
    }
}
