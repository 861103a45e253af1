package dev.distlock.core.support;

import dev.distlock.memory.InMemoryLockStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A {@link LockStore} whose calls can be held, failed, answered late or replayed at chosen points, over a
 * real {@link InMemoryLockStore}: the deterministic way to reproduce an interleaving of the engine with a
 * backend that hangs, loses replies or runs a command twice.
 *
 * <pre>{@code
 * Call renewal = store.next(Op.EXTEND, "job").holdAfterRunning();   // runs, then the reply is held back
 * ...
 * renewal.awaitEntered();
 * ...                                                               // act while the renewal is in flight
 * renewal.proceed();                                                // or renewal.failWith(...)
 * }</pre>
 *
 * <p>A held call waits like a client's command does: an interrupt of the calling thread ends it with an
 * exception whose cause is the {@link InterruptedException} (as Lettuce does). Every call is recorded with
 * its thread, for assertions on who called what.
 */
final class ScriptedLockStore implements LockStore {

    /** The store operations. */
    enum Op { ACQUIRE, LEAVE, RELEASE, ABANDON, EXTEND, REMAINING, IS_LOCKED }

    /** What a scripted call does. */
    enum Mode {
        /** Blocks before the operation runs: a command that has not reached the backend yet. */
        HOLD_BEFORE,
        /** Runs the operation, then blocks: a command that ran but whose reply is late. */
        HOLD_AFTER,
        /** Runs the operation and throws: the reply is lost. */
        LOSE_REPLY,
        /** Throws without running: the backend refused. */
        FAIL,
        /** Runs the operation twice and answers the second: a client that sent it again after a reconnect. */
        REPLAY,
        /** Runs an action of the test, then the operation: something that happens just before it reaches the backend. */
        RUN_FIRST
    }

    private static final RuntimeException DEFAULT_FAILURE = new IllegalStateException("scripted backend failure");

    final InMemoryLockStore backend;
    private final List<Call> armed = new CopyOnWriteArrayList<>();
    private final List<Recorded> calls = new CopyOnWriteArrayList<>();
    private volatile boolean noticesHeld;
    /** The client's own threads, when tries and releases are answered asynchronously; else {@code null}. */
    private volatile ExecutorService client;
    private final List<Runnable> heldNotices = new ArrayList<>();

    ScriptedLockStore(InMemoryLockStore backend) {
        this.backend = backend;
    }

    ScriptedLockStore() {
        this(new InMemoryLockStore());
    }

    /** Arms a script for the next call of {@code op} on any name. */
    Call next(Op op) {
        return arm(op, name -> true);
    }

    /** Arms a script for the next call of {@code op} on {@code name}. */
    Call next(Op op, String name) {
        return arm(op, name::equals);
    }

    /** Arms a script for every call of {@code op} on {@code name} until disarmed. */
    Call every(Op op, String name) {
        return arm(op, name::equals).repeating();
    }

    private Call arm(Op op, Predicate<String> names) {
        Call call = new Call(op, names);
        armed.add(call);
        return call;
    }

    /**
     * From now on {@link #tryAcquireAsync} and {@link #releaseAsync} are answered on a client thread of their own, as
     * Lettuce's asynchronous API answers on its event loop: a held call leaves the command in flight while the caller
     * goes on.
     */
    void answerAsynchronously() {
        client = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "scripted-client");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Keeps hand-off notices from their waiters until {@link #deliverNotices()}: a paused waiter process. */
    void holdNotices() {
        noticesHeld = true;
    }

    /** Delivers the notices held back, and delivers the next ones at once. */
    void deliverNotices() {
        List<Runnable> pending;
        synchronized (heldNotices) {
            noticesHeld = false;
            pending = new ArrayList<>(heldNotices);
            heldNotices.clear();
        }
        pending.forEach(Runnable::run);
    }

    /** How many calls of {@code op} on {@code name} were made. */
    long calls(Op op, String name) {
        return calls.stream().filter(call -> call.op() == op && call.name().equals(name)).count();
    }

    /** The calls of {@code op} made on {@code thread}. */
    long callsOn(Op op, Thread thread) {
        return calls.stream().filter(call -> call.op() == op && call.thread() == thread).count();
    }

    List<Recorded> recorded() {
        return List.copyOf(calls);
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return call(Op.ACQUIRE, name, token,
                () -> backend.tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis));
    }

    @Override
    public CompletionStage<AcquireResult> tryAcquireAsync(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        ExecutorService threads = client;
        return threads == null ? LockStore.super.tryAcquireAsync(name, token, leaseMillis, queue, waiterTimeoutMillis)
                : CompletableFuture.supplyAsync(() -> tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis),
                        threads);
    }

    @Override
    public CompletionStage<Boolean> releaseAsync(String name, String token) {
        ExecutorService threads = client;
        return threads == null ? LockStore.super.releaseAsync(name, token)
                : CompletableFuture.supplyAsync(() -> release(name, token), threads);
    }

    @Override
    public AcquireResult leaveQueue(String name, String token, long leaseMillis) {
        return call(Op.LEAVE, name, token, () -> backend.leaveQueue(name, token, leaseMillis));
    }

    @Override
    public boolean release(String name, String token) {
        return call(Op.RELEASE, name, token, () -> backend.release(name, token));
    }

    @Override
    public void abandon(String name, String token) {
        call(Op.ABANDON, name, token, () -> {
            backend.abandon(name, token);
            return null;
        });
    }

    @Override
    public boolean extend(String name, String token, long leaseMillis) {
        return call(Op.EXTEND, name, token, () -> backend.extend(name, token, leaseMillis));
    }

    /** A renewal is scripted as {@link Op#EXTEND} too: both set the lease of a hold. */
    @Override
    public boolean renew(String name, String token, long leaseMillis) {
        return call(Op.EXTEND, name, token, () -> backend.renew(name, token, leaseMillis));
    }

    @Override
    public long remainingLeaseMillis(String name, String token) {
        return call(Op.REMAINING, name, token, () -> backend.remainingLeaseMillis(name, token));
    }

    @Override
    public boolean isLocked(String name) {
        return call(Op.IS_LOCKED, name, null, () -> backend.isLocked(name));
    }

    /**
     * Failures of this type count as transient refusals (a slot moving, a failover): the backend answered that the
     * command did not run, as a Redis store would say.
     */
    static final class TransientFailure extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        TransientFailure(String message) {
            super(message);
        }
    }

    /** A command that got no answer in time: transient, but it may have run. */
    static final class CommandTimeout extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        CommandTimeout(String message) {
            super(message);
        }
    }

    @Override
    public boolean wasRefused(RuntimeException failure) {
        return failure instanceof TransientFailure;
    }

    @Override
    public boolean isTransient(RuntimeException failure) {
        return failure instanceof TransientFailure || failure instanceof CommandTimeout;
    }

    @Override
    public LockSnapshot inspect(String name) {
        return backend.inspect(name);
    }

    @Override
    public void announce(String instance, Map<String, String> description, long ttlMillis) {
        backend.announce(instance, description, ttlMillis);
    }

    @Override
    public Map<String, String> announcement(String instance) {
        return backend.announcement(instance);
    }

    @Override
    public CompletableFuture<Void> listen() {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public boolean listening() {
        return true;
    }

    @Override
    public Subscription onGrant(String name, String token, Consumer<Grant> onGrant) {
        Consumer<Grant> delivery = grant -> {
            synchronized (heldNotices) {
                if (noticesHeld) {
                    heldNotices.add(() -> onGrant.accept(grant));
                    return;
                }
            }
            onGrant.accept(grant);
        };
        return backend.onGrant(name, token, delivery);
    }

    @Override
    public void close() {
        armed.forEach(Call::proceed);
        ExecutorService threads = client;
        if (threads != null) {
            threads.shutdownNow();
        }
    }

    private <T> T call(Op op, String name, String token, Supplier<T> operation) {
        calls.add(new Recorded(op, name, token, Thread.currentThread()));
        Call script = null;
        for (Call call : armed) {
            if (call.op == op && call.names.test(name) && call.claim()) {
                script = call;
                break;
            }
        }
        if (script == null) {
            return operation.get();
        }
        return script.perform(operation);
    }

    /** One recorded call. */
    record Recorded(Op op, String name, String token, Thread thread) {
    }

    /** A scripted call: what it does, and latches to act while it is in flight. */
    final class Call {

        private final Op op;
        private final Predicate<String> names;
        private volatile Mode mode = Mode.HOLD_BEFORE;
        private volatile RuntimeException failure = DEFAULT_FAILURE;
        private volatile boolean repeating;
        private volatile Runnable action;
        private boolean claimed;
        private final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private final CountDownLatch done = new CountDownLatch(1);
        private volatile RuntimeException releasedWith;
        private volatile Thread caller;

        private Call(Op op, Predicate<String> names) {
            this.op = op;
            this.names = names;
        }

        Call holdBeforeRunning() {
            mode = Mode.HOLD_BEFORE;
            return this;
        }

        Call holdAfterRunning() {
            mode = Mode.HOLD_AFTER;
            return this;
        }

        Call loseReply() {
            mode = Mode.LOSE_REPLY;
            return this;
        }

        /** Runs the operation, then fails with {@code error} in place of the reply (e.g. a command timeout). */
        Call loseReply(RuntimeException error) {
            mode = Mode.LOSE_REPLY;
            failure = error;
            return this;
        }

        Call fail(RuntimeException error) {
            mode = Mode.FAIL;
            failure = error;
            return this;
        }

        /** Runs {@code action} on the calling thread just before the operation. */
        Call runFirst(Runnable action) {
            mode = Mode.RUN_FIRST;
            this.action = action;
            return this;
        }

        Call replay() {
            mode = Mode.REPLAY;
            return this;
        }

        private Call repeating() {
            repeating = true;
            return this;
        }

        /** Stops a repeating script from matching further calls. */
        void disarm() {
            armed.remove(this);
        }

        /** Waits (bounded) until the scripted call was made; returns the calling thread. */
        Thread awaitEntered() throws InterruptedException {
            if (!entered.await(20, TimeUnit.SECONDS)) {
                throw new AssertionError("the scripted " + op + " was never called");
            }
            return caller;
        }

        /** Waits (bounded) until the scripted call has run and answered (or failed). */
        void awaitDone() throws InterruptedException {
            if (!done.await(20, TimeUnit.SECONDS)) {
                throw new AssertionError("the scripted " + op + " never finished");
            }
        }

        boolean wasEntered() {
            return entered.getCount() == 0;
        }

        /** Lets a held call go on (run, or answer). */
        void proceed() {
            released.countDown();
        }

        /** Ends a held call with {@code error} instead of its answer. */
        void failWith(RuntimeException error) {
            releasedWith = error;
            released.countDown();
        }

        private synchronized boolean claim() {
            if (claimed && !repeating) {
                return false;
            }
            if (!repeating) {
                claimed = true;
                armed.remove(this);
            }
            return true;
        }

        private <T> T perform(Supplier<T> operation) {
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
                throw new IllegalStateException("scripted " + op + " interrupted", ex);
            }
            if (releasedWith != null) {
                throw releasedWith;
            }
        }
    }
}
