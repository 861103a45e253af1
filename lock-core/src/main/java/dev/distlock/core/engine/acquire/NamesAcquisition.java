package dev.distlock.core.engine.acquire;

import dev.distlock.core.Lease;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.runtime.StepRunners;
import dev.distlock.core.engine.store.StoreCalls;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call that wants several names ({@link StoreNamesLock}): the names in their canonical order, each an
 * {@link Acquisition} on the same step runner within one wait that ends at one deadline, after which no try starts
 * (without a wait, one try each). It ends with a hold of every name, or with none: when a name's wait runs out, its
 * try fails, the caller is interrupted (if it may be) or cancels, what this call took is given back exactly once,
 * without waiting for the store. A name the caller's
 * thread held before is only counted once more, and giving it back takes off that count alone. A give-back that
 * fails is the registry's to report (a loss to {@code onLost}, a release without answer to
 * {@code onReleaseFailed}, then its clean-up), never the caller's answer.
 */
public final class NamesAcquisition implements StepRunners.Awaited {

    private static final Logger log = LoggerFactory.getLogger(NamesAcquisition.class);

    private final Engine engine;
    private final List<String> names;
    private final Lease lease;
    private final String label;
    private final long startNanos;
    private final long waitNanos;
    private final boolean interruptible;
    /** The blocking caller's thread, which owns the holds; {@code null} for a non-blocking caller. */
    private final Thread owner;
    private final Executor steps;
    /** The holds of this call in the names' order; a name is either taken anew or re-entered. */
    private final Hold[] holds;
    private final boolean[] reentered;
    private final CompletableFuture<List<Hold>> result = new CompletableFuture<>();
    private int next;
    private boolean givenBack;
    private boolean interruptedThrough;
    private volatile Acquisition current;
    private volatile boolean cancelled;

    /**
     * @param names distinct, in their canonical order
     * @param waitNanos how long to wait for all of them; 0 for one try each, {@link Long#MAX_VALUE} for no limit
     * @param owner the blocking caller's thread, or {@code null}
     */
    public NamesAcquisition(Engine engine, List<String> names, Lease lease, String label, long waitNanos,
            boolean interruptible, Thread owner, Executor steps) {
        this.engine = engine;
        this.names = names;
        this.lease = lease;
        this.label = label;
        this.startNanos = engine.runtime().nanoTime();
        this.waitNanos = Math.max(0, waitNanos);
        this.interruptible = interruptible;
        this.owner = owner;
        this.steps = steps;
        this.holds = new Hold[names.size()];
        this.reentered = new boolean[names.size()];
    }

    /** Starts taking the names: the future completes with every hold, or {@code null} if a wait ran out. */
    public CompletableFuture<List<Hold>> start() {
        takeNext();
        return result;
    }

    @Override
    public boolean isDone() {
        return result.isDone();
    }

    /** Whether an interrupt came that the call's outcome does not tell (see {@link Acquisition#wasInterrupted}). */
    public boolean wasInterrupted() {
        return interruptedThrough;
    }

    @Override
    public void interrupt(InterruptedException interrupt) {
        Acquisition taking = current;
        if (taking != null) {
            taking.interrupt(interrupt);
        } else {
            interruptedThrough = true; // between names: told by the flag, as the call ends anyway
        }
    }

    /** The caller gave up: the name being waited for is withdrawn, and what was taken is given back. */
    public void cancel() {
        cancelled = true;
        Acquisition taking = current;
        if (taking != null) {
            taking.cancel();
        }
    }

    /** Takes the next name, or ends with all of them; each runs once the one before has ended. */
    private void takeNext() {
        if (cancelled) {
            end(null);
            return;
        }
        if (next == names.size()) {
            if (allStillCount()) {
                result.complete(Arrays.asList(holds));
            } else if (startOver()) {
                takeNext();
            }
            return;
        }
        int index = next++;
        String name = names.get(index);
        Hold own = owner != null ? engine.names().heldBy(name, owner) : null;
        if (own != null) {
            try {
                engine.holds().requireHeld(own);
                own.reenterAsLock();
            } catch (RuntimeException lostOrRefused) {
                end(lostOrRefused);
                return;
            }
            holds[index] = own;
            reentered[index] = true;
            takeNext();
            return;
        }
        long remaining = remainingNanos();
        if (remaining == 0 && waitNanos > 0) {
            end(null); // no try starts after the wait ran out: the call ends within it plus the try in flight
            return;
        }
        Acquisition taking = new Acquisition(engine, engine.request(name, lease, label), remaining,
                interruptible, owner == null, steps);
        current = taking;
        taking.start().whenComplete((hold, failure) -> {
            current = null;
            interruptedThrough |= taking.wasInterrupted();
            if (hold != null) {
                hold.ownBy(owner);
                holds[index] = hold;
                takeNext();
            } else {
                end(failure != null ? StoreCalls.unwrapped(failure) : null);
            }
        });
    }

    /**
     * Whether every name may still be answered ({@link TrustedLease#stillCounts}): a fixed lease of a name taken first
     * may run out while a later name is waited for.
     */
    private boolean allStillCount() {
        long now = engine.runtime().nanoTime();
        for (Hold hold : holds) {
            if (!hold.isActive() || !hold.stillCounts(now)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A name ran out while the others were taken: gives back what this round took and starts over from the first
     * name if some of the wait is left (taking the names again in order, never one out of it); else ends with
     * nothing. Returns whether it starts over.
     */
    private boolean startOver() {
        giveBackHolds();
        if (remainingNanos() == 0) {
            givenBack = true;
            result.complete(null);
            return false;
        }
        Arrays.fill(holds, null);
        Arrays.fill(reentered, false);
        next = 0;
        return true;
    }

    /** What is left of the one wait; {@link Long#MAX_VALUE} without a limit. */
    private long remainingNanos() {
        if (waitNanos == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, waitNanos - (engine.runtime().nanoTime() - startNanos));
    }

    /** Ends without the names: gives back what this call took, then answers {@code null} or {@code failure}. */
    private void end(Throwable failure) {
        giveBack();
        if (failure != null) {
            result.completeExceptionally(failure);
        } else {
            result.complete(null);
        }
    }

    /** Gives back what this call took, the last name first, once; never waits for the store and never throws. */
    private void giveBack() {
        if (givenBack) {
            return;
        }
        givenBack = true;
        giveBackHolds();
    }

    /** Gives back the holds of this round, the last name first. */
    private void giveBackHolds() {
        List<Hold> taken = new ArrayList<>(holds.length);
        for (int i = holds.length - 1; i >= 0; i--) {
            Hold hold = holds[i];
            if (hold == null) {
                continue;
            }
            if (reentered[i]) {
                hold.leaveOnce(); // the count this call added: the thread's own hold stays held
            } else {
                hold.ownBy(null); // no longer the caller's: its next call on the name must not find it
                taken.add(hold);
            }
        }
        taken.forEach(this::release);
    }

    /** Releases a hold of this call in the background; the registry reports a failure, logged here at DEBUG. */
    private void release(Hold hold) {
        engine.holds().releaseAsync(hold, 0).exceptionally(failure -> {
            log.debug("Giving back lock '{}' after its set was not acquired failed", hold.name, failure);
            return null;
        });
    }
}
