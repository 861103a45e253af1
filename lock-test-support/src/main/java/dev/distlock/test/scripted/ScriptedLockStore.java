package dev.distlock.test.scripted;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.BatchRenewal;
import dev.distlock.core.spi.Grant;
import dev.distlock.core.spi.HandOffNotices;
import dev.distlock.core.spi.LockReads;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.PassOn;
import dev.distlock.core.spi.PassingOn;
import dev.distlock.core.spi.PermitClaims;
import dev.distlock.core.spi.Renewal;
import dev.distlock.core.spi.StoreCapabilities;
import dev.distlock.core.spi.StoreFailure;
import dev.distlock.core.spi.WaitQueue;
import dev.distlock.memory.InMemoryLockStore;
import dev.distlock.test.ForwardingLockStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A {@link LockStore} whose calls can be held, failed, answered late or replayed at chosen points, over a
 * real {@link InMemoryLockStore}: the deterministic way to reproduce an interleaving of the engine with a
 * backend that hangs, loses replies or runs a command twice.
 *
 * <pre>{@code
 * ScriptedCall renewal = store.next(Op.EXTEND, "job").holdAfterRunning();   // runs, then the reply is held back
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
public final class ScriptedLockStore extends ForwardingLockStore
        implements WaitQueue, PassingOn, BatchRenewal, LockReads, PermitClaims {

    /** The store operations. */
    public enum Op {
        ACQUIRE, LEAVE, RELEASE, ABANDON, EXTEND, REMAINING, IS_LOCKED, PASS_ON, TAKE_PERMITS, KEEP_PERMITS
    }


    private final InMemoryLockStore backend;
    private final List<ScriptedCall> armed = new CopyOnWriteArrayList<>();
    private final List<Recorded> calls = new CopyOnWriteArrayList<>();
    private volatile boolean noticesHeld;
    private volatile boolean passesOn;
    /** The sizes of the renewal batches, once batches are on; else {@code null}. */
    private volatile List<Integer> batches;
    /** The client's own threads, when tries and releases are answered asynchronously; else {@code null}. */
    private volatile ExecutorService client;
    private final List<Runnable> heldNotices = new ArrayList<>();

    /** Scripts calls to {@code backend}. */
    public ScriptedLockStore(InMemoryLockStore backend) {
        super(backend);
        this.backend = backend;
    }

    /** Scripts calls to a new in-memory store. */
    public ScriptedLockStore() {
        this(new InMemoryLockStore());
    }

    /** The store behind the scripts: what it holds is what the backend holds, whatever the scripts answered. */
    public InMemoryLockStore backend() {
        return backend;
    }

    /** Arms a script for the next call of {@code op} on any name. */
    public ScriptedCall next(Op op) {
        return arm(op, name -> true);
    }

    /** Arms a script for the next call of {@code op} on {@code name}. */
    public ScriptedCall next(Op op, String name) {
        return arm(op, name::equals);
    }

    /** Arms a script for every call of {@code op} on {@code name} until disarmed. */
    public ScriptedCall every(Op op, String name) {
        return arm(op, name::equals).repeating();
    }

    private ScriptedCall arm(Op op, Predicate<String> names) {
        ScriptedCall call = new ScriptedCall(op, names, armed);
        armed.add(call);
        return call;
    }

    /**
     * Makes this store offer {@linkplain StoreCapabilities#async() asynchronous operations}, answered on client
     * threads of their own as Lettuce's asynchronous API answers on its event loop: a held call leaves the command in
     * flight while the caller goes on. Call it before making registries on the store (they ask for its
     * {@link #capabilities()} once).
     */
    public void answerAsynchronously() {
        client = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "scripted-client");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Makes this store renew in batches, as the Redis store does ({@link #renewAll}): each batch is recorded
     * by its size ({@link #renewalBatches()}), and each renewal in it is still a scriptable {@link Op#EXTEND}. Call
     * it before making registries on the store.
     */
    public void renewInBatches() {
        batches = new CopyOnWriteArrayList<>();
    }

    /**
     * Makes this store pass a lock on in one call, as the Redis store does ({@link #passOn}): a release with the
     * next local caller's try is one scriptable {@link Op#PASS_ON}, recorded under the releasing token. Call it before
     * making registries on the store.
     */
    public void passInOneCall() {
        passesOn = true;
    }

    /** The sizes of the renewal batches so far, in order; empty unless {@link #renewInBatches()} was called. */
    public List<Integer> renewalBatches() {
        List<Integer> sizes = batches;
        return sizes == null ? List.of() : List.copyOf(sizes);
    }

    /** Keeps hand-off notices from their waiters until {@link #deliverNotices()}: a paused waiter process. */
    public void holdNotices() {
        noticesHeld = true;
    }

    /** Delivers the notices held back, and delivers the next ones at once. */
    public void deliverNotices() {
        List<Runnable> pending;
        synchronized (heldNotices) {
            noticesHeld = false;
            pending = new ArrayList<>(heldNotices);
            heldNotices.clear();
        }
        pending.forEach(Runnable::run);
    }

    /** How many calls of {@code op} on {@code name} were made. */
    public long calls(Op op, String name) {
        return calls.stream().filter(call -> call.op() == op && call.name().equals(name)).count();
    }

    /** The calls of {@code op} made on {@code thread}. */
    public long callsOn(Op op, Thread thread) {
        return calls.stream().filter(call -> call.op() == op && call.thread() == thread).count();
    }

    public List<Recorded> recorded() {
        return List.copyOf(calls);
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return call(Op.ACQUIRE, name, token,
                () -> backend.tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis));
    }

    /**
     * The backend's queue, reads and announcements, scripted where this store scripts them; hand-off notices that can
     * be held back; {@link TransientFailure} refused and {@link CommandTimeout} in doubt; and, once asked for, the
     * scripted calls made on the client's threads ({@link #answerAsynchronously()}), renewals in batches
     * ({@link #renewInBatches()}) and passing on in one call ({@link #passInOneCall()}).
     */
    @Override
    public StoreCapabilities capabilities() {
        ExecutorService threads = client;
        return backend.capabilities().toBuilder().queue(this).reads(this).handOffs(this::await).permits(this)
                .async(threads == null ? null : AsyncLockStore.on(this, threads))
                .batchRenewal(batches != null ? this : null).passingOn(passesOn ? this : null)
                .failures(ScriptedLockStore::classify).build();
    }

    @Override
    public AcquireResult takePermits(String name, String token, int permits, int limit, long leaseMillis,
            boolean queue, long waiterTimeoutMillis) {
        return call(Op.TAKE_PERMITS, name, token,
                () -> backend.takePermits(name, token, permits, limit, leaseMillis, queue, waiterTimeoutMillis));
    }

    @Override
    public boolean keepPermits(String name, String token, int permits) {
        return call(Op.KEEP_PERMITS, name, token, () -> backend.keepPermits(name, token, permits));
    }

    @Override
    public AcquireResult leaveQueue(String name, String token, long leaseMillis) {
        return call(Op.LEAVE, name, token, () -> backend.leaveQueue(name, token, leaseMillis));
    }

    @Override
    public boolean release(String name, String token, long fencingToken) {
        return call(Op.RELEASE, name, token, () -> backend.release(name, token, fencingToken));
    }

    @Override
    public PassOn passOn(String name, String token, long fencingToken, String next, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return call(Op.PASS_ON, name, token, () -> new PassOn(backend.release(name, token, fencingToken),
                backend.tryAcquire(name, next, leaseMillis, queue, waiterTimeoutMillis)));
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
    public boolean[] renewAll(List<Renewal> renewals) {
        List<Integer> sizes = batches;
        if (sizes != null) {
            sizes.add(renewals.size());
        }
        boolean[] owned = new boolean[renewals.size()];
        for (int i = 0; i < owned.length; i++) {
            Renewal renewal = renewals.get(i);
            owned[i] = renew(renewal.name(), renewal.token(), renewal.leaseMillis()); // each one scriptable
        }
        return owned;
    }

    @Override
    public long remainingLeaseMillis(String name, String token) {
        return call(Op.REMAINING, name, token, () -> backend.remainingLeaseMillis(name, token));
    }

    @Override
    public boolean isLocked(String name) {
        return call(Op.IS_LOCKED, name, null, () -> backend.isLocked(name));
    }

    @Override
    public LockSnapshot inspect(String name) {
        return backend.inspect(name);
    }

    /**
     * Failures of this type count as transient refusals (a slot moving, a failover): the backend answered that the
     * command did not run, as a Redis store would say.
     */
    public static final class TransientFailure extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        public TransientFailure(String message) {
            super(message);
        }
    }

    /** A command that got no answer in time: transient, but it may have run. */
    public static final class CommandTimeout extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        public CommandTimeout(String message) {
            super(message);
        }
    }

    private static StoreFailure classify(RuntimeException failure) {
        if (failure instanceof TransientFailure) {
            return StoreFailure.REFUSED;
        }
        return failure instanceof CommandTimeout ? StoreFailure.IN_DOUBT : StoreFailure.PERMANENT;
    }

    private HandOffNotices.Subscription await(String name, String token, Consumer<Grant> onGrant) {
        Consumer<Grant> delivery = grant -> {
            synchronized (heldNotices) {
                if (noticesHeld) {
                    heldNotices.add(() -> onGrant.accept(grant));
                    return;
                }
            }
            onGrant.accept(grant);
        };
        return backend.await(name, token, delivery);
    }

    @Override
    public void close() {
        armed.forEach(ScriptedCall::proceed);
        ExecutorService threads = client;
        if (threads != null) {
            threads.shutdownNow();
        }
    }

    private <T> T call(Op op, String name, String token, Supplier<T> operation) {
        calls.add(new Recorded(op, name, token, Thread.currentThread()));
        ScriptedCall script = null;
        for (ScriptedCall call : armed) {
            if (call.matches(op, name) && call.claim()) {
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
    public record Recorded(Op op, String name, String token, Thread thread) {
    }
}
