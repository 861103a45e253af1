package dev.distlock.core.engine.hold;

import dev.distlock.core.spi.AcquireResult;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * This registry's local queue for one name: one acquisition at a time goes to the store, the others wait here in
 * arrival order, each as a pending future (no thread). An acquisition owns the gate from {@link #enter} until
 * its hold ends or is lost (or it gives up without one), and gives it back exactly once: with {@link #leave}, or
 * by handing it on ({@link #handOn}) with its release, which then carries the next caller's first try.
 */
public final class NameGate {

    /** Where a call that finds the gate free enters: nothing is made for it. */
    private static final Waiting ENTERED = new Waiting(CompletableFuture.completedFuture(null), null);

    /** Made when the first call has to wait: most names never see two calls at once. */
    private ArrayDeque<Waiting> queue;
    private boolean taken;
    /** The registry closed: everybody may pass, to find it closed. */
    private boolean open;

    /**
     * A call's place at the gate: let in when {@link #entry} completes, with the first try its predecessor sent for
     * it ({@link #passed}) if that one handed the gate on with its release; the {@link #caller} says what that try
     * sends.
     */
    public static final class Waiting {

        public final CompletableFuture<Void> entry;
        final Caller caller;
        /** Written before {@link #entry} completes, read after. */
        private PassedTry passed;

        private Waiting(CompletableFuture<Void> entry, Caller caller) {
            this.entry = entry;
            this.caller = caller;
        }

        /** The first try sent with the predecessor's release, or {@code null}: the call sends its own. */
        public PassedTry passed() {
            return passed;
        }

        /** Lets the call in: with its first try already sent, or ({@code null}) to send its own. */
        public void letIn(PassedTry sent) {
            passed = sent;
            entry.complete(null);
        }
    }

    /**
     * A call at the gate, as its predecessor sees it: what its first try sends (its token, lease, and whether it
     * queues if the lock is busy). Fixed when the call is made, so any thread may read them.
     */
    public interface Caller {

        String firstToken();

        long leaseMillis();

        boolean queues();

        /**
         * Its predecessor is about to send its first try with its release: true if the call now counts among the
         * registry's waiters until it took up that try or gave back what the try took, so that a close waits for
         * that; false if the registry closes, and no try is sent for the call (it is let in to find it closed).
         */
        boolean awaitsPassedTry();
    }

    /** A first try sent for the call by its predecessor: its answer, and when it was sent. */
    public record PassedTry(CompletionStage<AcquireResult> answer, long sentNanos) {
    }

    /** The caller's place: let in at once if nobody owns the gate. */
    public synchronized Waiting enter(Caller caller) {
        if (!taken || open) {
            taken = true;
            return ENTERED;
        }
        Waiting waiting = new Waiting(new CompletableFuture<>(), caller);
        if (queue == null) {
            queue = new ArrayDeque<>();
        }
        queue.add(waiting);
        return waiting;
    }

    /**
     * Takes a waiting call out of the queue.
     *
     * @return true if it was still waiting; false if it was let in, or is being let in (its entry completes)
     */
    public synchronized boolean withdraw(Waiting waiting) {
        return queue != null && queue.remove(waiting);
    }

    /** Gives the gate to the next in line, or frees it. */
    public void leave() {
        Waiting next;
        synchronized (this) {
            next = queue != null ? queue.poll() : null;
            if (next == null) {
                taken = false;
                return;
            }
        }
        next.letIn(null); // outside the monitor: the next acquisition's step may run here
    }

    /**
     * The owner will hand the gate on: the next in line, taken out of the queue (it can no longer withdraw), whom the
     * owner must {@link Waiting#letIn let in}; {@code null} if none waits, and the gate stays the owner's.
     */
    public synchronized Waiting handOn() {
        return queue != null ? queue.poll() : null;
    }

    /** Lets everybody in, now and from now on: the registry closes and they must find it closed. */
    public void openForClose() {
        Waiting[] waiting;
        synchronized (this) {
            open = true;
            waiting = queue != null ? queue.toArray(Waiting[]::new) : new Waiting[0];
            queue = null;
        }
        for (Waiting call : waiting) {
            call.letIn(null);
        }
    }
}
