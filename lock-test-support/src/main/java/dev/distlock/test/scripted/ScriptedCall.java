package dev.distlock.test.scripted;

import dev.distlock.test.scripted.ScriptedLockStore.Op;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A scripted call of a {@link ScriptedLockStore}: what it does when the engine makes it, and latches to act while it
 * is in flight. Made by {@link ScriptedLockStore#next} and {@link ScriptedLockStore#every}.
 */
public final class ScriptedCall {

    /** What a scripted call does. */
    private enum Mode {
        /** Blocks before the operation runs: a command that has not reached the backend yet. */
        HOLD_BEFORE,
        /** Runs the operation, then blocks: a command that ran but whose reply is late. */
        HOLD_AFTER,
        /** Runs the operation and throws: the reply is lost. */
        LOSE_REPLY,
        /** Throws without running: the backend refused. */
        FAIL,
        /**
         * Runs the operation, then an action of the test, then the operation again, and answers the second run: a
         * client that sent it again after a reconnect (the action: what happened in between, possibly nothing).
         */
        REPLAY,
        /** Runs an action of the test, then the operation: something that happens just before it reaches the backend. */
        RUN_FIRST
    }

    private static final RuntimeException DEFAULT_FAILURE = new IllegalStateException("scripted backend failure");


    private final Op op;
    private final Predicate<String> names;
    private final List<ScriptedCall> armed;
    private volatile Mode mode = Mode.HOLD_BEFORE;
    private volatile RuntimeException failure = DEFAULT_FAILURE;
    private volatile boolean repeating;
    private volatile Runnable action;
    /** What the call throws when the calling thread is interrupted while it is held; {@code null}: the default. */
    private volatile Function<InterruptedException, RuntimeException> interrupted;
    private boolean claimed;
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile RuntimeException releasedWith;
    private volatile Thread caller;

    ScriptedCall(Op op, Predicate<String> names, List<ScriptedCall> armed) {
        this.op = op;
        this.names = names;
        this.armed = armed;
    }

    boolean matches(Op op, String name) {
        return this.op == op && names.test(name);
    }

    public ScriptedCall holdBeforeRunning() {
        mode = Mode.HOLD_BEFORE;
        return this;
    }

    public ScriptedCall holdAfterRunning() {
        mode = Mode.HOLD_AFTER;
        return this;
    }

    public ScriptedCall loseReply() {
        mode = Mode.LOSE_REPLY;
        return this;
    }

    /** Runs the operation, then fails with {@code error} in place of the reply (e.g. a command timeout). */
    public ScriptedCall loseReply(RuntimeException error) {
        mode = Mode.LOSE_REPLY;
        failure = error;
        return this;
    }

    public ScriptedCall fail(RuntimeException error) {
        mode = Mode.FAIL;
        failure = error;
        return this;
    }

    /** Runs {@code action} on the calling thread just before the operation. */
    public ScriptedCall runFirst(Runnable action) {
        mode = Mode.RUN_FIRST;
        this.action = action;
        return this;
    }

    /**
     * What a held call throws when the calling thread is interrupted (the interrupt flag set again, as clients do):
     * by default an {@link IllegalStateException} caused by the {@link InterruptedException}; a test can give the
     * exception a real client throws, e.g. Lettuce's {@code RedisCommandInterruptedException} in the
     * {@code RedisSystemException} Spring Data wraps it in.
     */
    public ScriptedCall interruptedAs(Function<InterruptedException, RuntimeException> failure) {
        interrupted = failure;
        return this;
    }

    public ScriptedCall replay() {
        return replayAfter(() -> { });
    }

    /**
     * Runs the operation, then {@code between} on the calling thread, then the operation again, and answers the
     * second run: a reply lost with the connection, and the command sent again once the client reconnected, after
     * what other clients did meanwhile.
     */
    public ScriptedCall replayAfter(Runnable between) {
        mode = Mode.REPLAY;
        this.action = between;
        return this;
    }

    ScriptedCall repeating() {
        repeating = true;
        return this;
    }

    /** Stops a repeating script from matching further calls. */
    public void disarm() {
        armed.remove(this);
    }

    /** Waits (bounded) until the scripted call was made; returns the calling thread. */
    public Thread awaitEntered() throws InterruptedException {
        if (!entered.await(20, TimeUnit.SECONDS)) {
            throw new AssertionError("the scripted " + op + " was never called");
        }
        return caller;
    }

    /** Waits (bounded) until the scripted call has run and answered (or failed). */
    public void awaitDone() throws InterruptedException {
        if (!done.await(20, TimeUnit.SECONDS)) {
            throw new AssertionError("the scripted " + op + " never finished");
        }
    }

    public boolean wasEntered() {
        return entered.getCount() == 0;
    }

    /** Lets a held call go on (run, or answer). */
    public void proceed() {
        released.countDown();
    }

    /** Ends a held call with {@code error} instead of its answer. */
    public void failWith(RuntimeException error) {
        releasedWith = error;
        released.countDown();
    }

    synchronized boolean claim() {
        if (claimed && !repeating) {
            return false;
        }
        if (!repeating) {
            claimed = true;
            armed.remove(this);
        }
        return true;
    }

    <T> T perform(Supplier<T> operation) {
        caller = Thread.currentThread();
        entered.countDown();
        try {
            return performScripted(operation);
        } finally {
            done.countDown();
        }
    }

    private <T> T performScripted(Supplier<T> operation) {
        switch (mode) {
            case FAIL:
                throw failure;
            case LOSE_REPLY:
                operation.get();
                throw failure != DEFAULT_FAILURE ? failure
                        : new IllegalStateException("scripted: the reply of " + op + " was lost");
            case REPLAY:
                operation.get();
                action.run();
                return operation.get();
            case RUN_FIRST:
                action.run();
                return operation.get();
            case HOLD_BEFORE:
                awaitRelease();
                return operation.get();
            case HOLD_AFTER:
            default:
                T answer = operation.get();
                awaitRelease();
                return answer;
        }
    }

    /** Waits like a client command: an interrupt ends the wait with an exception (as Lettuce does). */
    private void awaitRelease() {
        try {
            if (!released.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("scripted " + op + " was never released");
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            Function<InterruptedException, RuntimeException> failure = interrupted;
            throw failure != null ? failure.apply(ex) : new IllegalStateException("scripted " + op + " interrupted", ex);
        }
        if (releasedWith != null) {
            throw releasedWith;
        }
    }
}
