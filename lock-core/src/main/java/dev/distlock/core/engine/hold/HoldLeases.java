package dev.distlock.core.engine.hold;

import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockLostException;
import dev.distlock.core.engine.store.StoreCalls;
import dev.distlock.core.engine.store.StoreSends;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A held lock's lease, changed ({@code extend}) or read, for a blocking caller on its own thread or for a
 * non-blocking one without waiting. Either way the store's answer means the same: the hold follows a new lease, is
 * found lost ({@link HoldLifecycle#lose}), or (no answer) counts with the shorter of its old and new lease.
 */
public final class HoldLeases {

    private static final String READ = "read the remaining lease";

    private final HoldLifecycle holds;

    public HoldLeases(HoldLifecycle holds) {
        this.holds = holds;
    }

    /**
     * Sets the hold's lease to {@code lease} from now; renewals and the local deadline follow it. The stage fails
     * with the operation's own exception (a loss, a backend failure), not wrapped.
     */
    public CompletionStage<Void> extend(Hold hold, Duration lease, StoreSends via) {
        long leaseMillis;
        try {
            leaseMillis = checkedMillis(hold, lease);
            holds.requireHeld(hold);
        } catch (RuntimeException refused) {
            return CompletableFuture.failedFuture(refused);
        }
        long sent = holds.runtime().nanoTime();
        CompletableFuture<Void> done = new CompletableFuture<>();
        via.whenAnswered(via.store().extend(hold.name, hold.token, leaseMillis), (owned, failure) -> {
            try {
                if (failure != null) {
                    throw extendFailed(hold, sent, leaseMillis, failure);
                }
                extended(hold, sent, leaseMillis, owned);
                done.complete(null);
            } catch (RuntimeException failed) {
                done.completeExceptionally(failed);
            }
        });
        return done;
    }

    /** The hold's remaining lease as the backend sees it, at most until the local deadline; zero if it is lost. */
    public CompletionStage<Duration> remainingLease(Hold hold, StoreSends via) {
        if (!holds.stillHeld(hold)) {
            return CompletableFuture.completedFuture(Duration.ZERO);
        }
        CompletableFuture<Duration> done = new CompletableFuture<>();
        via.whenAnswered(via.store().remainingLeaseMillis(hold.name, hold.token), (millis, failure) -> {
            if (failure != null) {
                done.completeExceptionally(new LockBackendException(hold.name, READ, failure));
            } else {
                done.complete(leaseRead(hold, millis));
            }
        });
        return done;
    }

    /**
     * Asks the store whether the hold is still its owner's: completes if so, else fails with the loss (saying why),
     * not wrapped.
     */
    public CompletionStage<Void> verify(Hold hold, StoreSends via) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        remainingLease(hold, via).whenComplete((remaining, failure) -> {
            if (failure != null) {
                done.completeExceptionally(StoreCalls.unwrapped(failure));
            } else if (remaining.isZero()) {
                holds.stillHeld(hold); // a deadline just passed is a loss too, reported as one
                done.completeExceptionally(new LockLostException(hold.name, hold.lostReason()));
            } else {
                done.complete(null);
            }
        });
        return done;
    }

    private static long checkedMillis(Hold hold, Duration lease) {
        return Lease.checkedMillis(lease, "Lock '" + hold.name + "': the lease", hold.renewed);
    }

    /** What the store's answer to an extend sent at {@code sent} means: the new lease, or the hold is lost. */
    private void extended(Hold hold, long sent, long leaseMillis, boolean owned) {
        if (!owned) {
            String reason = "extend found that the store no longer holds it under this hold's token";
            holds.lose(hold, reason);
            throw new LockLostException(hold.name, reason);
        }
        if (!hold.leaseSet(sent, leaseMillis)) {
            throw new LockLostException(hold.name, hold.lostReason());
        }
        holds.watchdog().watch(hold);
    }

    /** The extend may have run (a lost reply, replicas short of acknowledging it): trust the shorter lease. */
    private LockBackendException extendFailed(Hold hold, long sent, long leaseMillis, Throwable failure) {
        hold.leaseMaybeSet(sent, leaseMillis);
        holds.watchdog().watch(hold);
        return new LockBackendException(hold.name, "extend the lease", failure);
    }

    /** A lease the store told ({@code millis}, negative if not held under the token), capped by the local deadline. */
    private Duration leaseRead(Hold hold, long millis) {
        if (millis < 0) {
            holds.lose(hold, "reading its lease found that the store no longer holds it under this hold's token");
            return Duration.ZERO;
        }
        long localMillis = TimeUnit.NANOSECONDS.toMillis(hold.validUntilNanos() - holds.runtime().nanoTime());
        return Duration.ofMillis(Math.max(0, Math.min(millis, localMillis)));
    }
}
