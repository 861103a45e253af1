package dev.distlock.core.engine.hold;

import dev.distlock.core.HoldKind;
import dev.distlock.core.LockEvent;
import dev.distlock.core.LockLostException;
import dev.distlock.core.WaitEnd;
import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.runtime.EngineExecutors;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * One acquisition in the backend and everything this process knows of it, as a state machine: its token and
 * fencing token, its phase, and from its bases who holds it here and how many times ({@link HeldBy}) and until when
 * it may be trusted ({@link TrustedLease}).
 *
 * <pre>
 *            markLost()                         end()
 *   LOST  &lt;------------  HELD (deadline, lease)  -----------&gt;  ENDED
 *                        |  ^ leaseSet / leaseMaybeSet (extend)
 *                        |  | renewalConfirmed / renewalFailed (watchdog)
 *                        +--+
 * </pre>
 *
 * <p>The phase moves once, from held to lost or ended (one compare-and-set each, which says whether it
 * happened), so a hold has exactly one end: a loss is reported once and never after the owner released. While
 * held, every change of the lease is one synchronized step of {@link TrustedLease}. Questions about the hold
 * ({@link #isHeld()}, the count, the fencing token) read this state and never wait for the backend; no monitor is
 * held across a backend call. The hold owns its name's local gate until it ends or is lost, and gives it back
 * exactly once.
 */
public final class Hold extends HeldBy {

    private enum Phase { HELD, LOST, ENDED }

    private static final VarHandle PHASE;
    private static final VarHandle OWNS_GATE;
    private static final VarHandle END_WATCH;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PHASE = lookup.findVarHandle(Hold.class, "phase", Phase.class);
            OWNS_GATE = lookup.findVarHandle(Hold.class, "ownsGate", boolean.class);
            END_WATCH = lookup.findVarHandle(Hold.class, "endWatch", CompletableFuture.class);
        } catch (ReflectiveOperationException impossible) {
            throw new ExceptionInInitializerError(impossible);
        }
    }

    private final EngineRuntime runtime;
    final NameState state;
    public final String name;
    public final String label;
    final String token;
    public final long fencingToken;
    /** When it was acquired, in epoch milliseconds: a long, not an {@link Instant}, until somebody asks. */
    private final long acquiredAtMillis;
    private final long acquiredNanos;

    /** How the acquisition's wait ended; set before the hold is handed to its caller. */
    private WaitEnd waitEnd;


    /** The phase, moved by compare-and-set ({@link #PHASE}); a field, not an atomic object: one per lock call. */
    private volatile Phase phase = Phase.HELD;
    private volatile boolean ownsGate = true;
    private volatile String lostReason;
    /** Told how the hold ended, once somebody asks ({@link #whenEnded()}); {@code null} until then. */
    private volatile CompletableFuture<LockLostException> endWatch;

    @Override
    String name() {
        return name;
    }

    /** How the wait of the acquisition that made it ended. */
    public WaitEnd waitEnd() {
        return waitEnd;
    }

    void waitEnded(WaitEnd end) {
        waitEnd = end;
    }

    /**
     * @param validUntilNanos the local deadline of the lease the backend set
     * @param confirmPending whether that lease is only a hand-off's claim, to be extended to the full lease
     * @param nextRenewalNanos when the first renewal (or the confirmation) is due
     * @param acquiredNanos when it was acquired (monotonic clock): the moment its answer was found to count, read
     *        once there (a clock read costs tens of nanoseconds on some machines)
     */
    public Hold(EngineRuntime runtime, NameState state, String name, String label, String token, long fencingToken,
            long leaseMillis, boolean renewed, long validUntilNanos, boolean confirmPending, long nextRenewalNanos,
            long acquiredNanos) {
        super(leaseMillis, renewed, validUntilNanos, confirmPending, nextRenewalNanos);
        this.runtime = runtime;
        this.acquiredAtMillis = runtime.currentTimeMillis();
        this.acquiredNanos = acquiredNanos;
        this.state = state;
        this.name = name;
        this.label = label;
        this.token = token;
        this.fencingToken = fencingToken;
    }

    /** Whether the hold is neither lost nor ended and its deadline has not passed. */
    public boolean isHeld() {
        return phase == Phase.HELD && !isPastDeadline(runtime.nanoTime());
    }

    /** Whether the hold is neither lost nor ended (its deadline may have passed unnoticed). */
    @Override
    public boolean isActive() {
        return phase == Phase.HELD;
    }

    @Override
    protected EngineExecutors.Scheduled scheduleLook(Watchdog watchdog, long delayNanos) {
        return watchdog.lookAfter(this, delayNanos);
    }

    /** Why the hold is not held (any more): the recorded loss, or its passed deadline. */
    String lostReason() {
        String reason = lostReason;
        return reason != null ? reason : expiryReason();
    }

    /** Records the loss; true the first time only, and never after the hold ended, so it is reported once. */
    boolean markLost(String reason) {
        if (!PHASE.compareAndSet(this, Phase.HELD, Phase.LOST)) {
            return false;
        }
        lostReason = reason;
        tellEnd();
        return true;
    }

    /** Ends the hold locally (its release follows); false if it had been found lost before. */
    boolean end() {
        if (!PHASE.compareAndSet(this, Phase.HELD, Phase.ENDED)) {
            return false;
        }
        tellEnd();
        return true;
    }

    /**
     * Completes when the hold ends here: with the loss once it is found lost while held, with {@code null} once its
     * owner ends it (a release, whatever the store then answers). Made on the first call only.
     */
    public CompletableFuture<LockLostException> whenEnded() {
        CompletableFuture<LockLostException> watch = endWatch;
        if (watch == null) {
            CompletableFuture<LockLostException> made = new CompletableFuture<>();
            watch = END_WATCH.compareAndSet(this, null, made) ? made : endWatch;
        }
        tellEnd();
        return watch;
    }

    /**
     * Completes the watch if both it and the end are there: called after each is set (volatile), so whichever comes
     * second sees the other. A loss whose reason is not written yet is told by its own call, just after.
     */
    private void tellEnd() {
        CompletableFuture<LockLostException> watch = endWatch;
        Phase now = phase;
        if (watch == null || now == Phase.HELD) {
            return;
        }
        if (now == Phase.ENDED) {
            watch.complete(null);
        } else if (lostReason != null) {
            watch.complete(new LockLostException(name, lostReason));
        }
    }

    /**
     * A hold of permits ({@code kind}: of a semaphore, or a read-write lock's read or write), which no local gate let
     * in: it has no gate to give back or hand on.
     */
    public Hold ofPermits(HoldKind kind) {
        holdsAs(kind);
        OWNS_GATE.setVolatile(this, false);
        return this;
    }

    /** Whether the hold owns its name's gate: a hold of the name's lock, until it gives the gate back or on. */
    boolean ownsGate() {
        return ownsGate;
    }

    /** The hold no longer gives its gate back: {@link LocalHandOff} hands it on. */
    void handOnGate() {
        OWNS_GATE.setVolatile(this, false);
    }

    /** Lets the next thread of this registry at the name; only the first call does. */
    void giveBackGate() {
        if (OWNS_GATE.compareAndSet(this, true, false)) {
            state.gate.leave();
        }
    }

    public Instant acquiredAt() {
        return Instant.ofEpochMilli(acquiredAtMillis);
    }

    /** When it was acquired (monotonic clock). */
    long acquiredNanos() {
        return acquiredNanos;
    }

    Duration heldFor() {
        return Duration.ofNanos(runtime.nanoTime() - acquiredNanos);
    }

    /** An event about this hold: {@code elapsed} is how long it has been held. */
    LockEvent event(Throwable error) {
        return new LockEvent(name, label, fencingToken, heldFor(), error, null, kind());
    }
}
