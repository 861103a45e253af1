package dev.distlock.test.simulation;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.Grant;
import dev.distlock.core.spi.HandOffNotices;
import dev.distlock.core.spi.PassOn;
import dev.distlock.core.spi.PassingOn;
import dev.distlock.core.spi.StoreCapabilities;
import dev.distlock.memory.InMemoryLockStore;
import dev.distlock.test.ForwardingLockStore;
import dev.distlock.test.MillisClock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The store of a simulation: an {@link InMemoryLockStore} on virtual time (the store that {@code LockStoreContract}
 * holds to the Redis scripts' answers), reached through a simulated network that offers only non-blocking
 * operations, each command sent, run and answered as tasks of the {@link VirtualScheduler}, and meeting the
 * {@link Faults} drawn from the seed while faults are on. It remembers which holds a release really freed, for the
 * oracle that no release that took effect is reported lost. A blocking caller's commands (made on a
 * {@linkplain SimThreads simulated thread}) go through the same network, the thread waiting for the answer.
 */
final class SimulatedStore extends ForwardingLockStore implements PassingOn {

    private final InMemoryLockStore backend;
    private final SimulatedNetwork wire;
    private final Trace trace;
    private final Set<String> released = new HashSet<>();
    private final SimThreads threads;

    SimulatedStore(VirtualScheduler scheduler, SimThreads threads, Faults faults, Trace trace) {
        this(scheduler, threads, faults, trace,
                new InMemoryLockStore(MillisClock.of(scheduler::currentTimeMillis), Duration.ofHours(1)));
    }

    private SimulatedStore(VirtualScheduler scheduler, SimThreads threads, Faults faults, Trace trace,
            InMemoryLockStore backend) {
        super(backend);
        this.threads = threads;
        this.trace = trace;
        this.wire = new SimulatedNetwork(scheduler, faults, trace);
        this.backend = backend;
    }

    InMemoryLockStore backend() {
        return backend;
    }

    /** From now on, commands meet {@code faults}. */
    void faults(Faults faults) {
        wire.faults(faults);
    }

    /** Whether a release of the hold of {@code name} with {@code fencingToken} ran and freed it (its answer may have been lost). */
    boolean releaseTookEffect(String name, long fencingToken) {
        return released.contains(name + '#' + fencingToken);
    }

    /**
     * The in-memory store's queue, reads and announcements; its operations through the simulated network, a release
     * passed on to the next local caller in one command (as on Redis), notices that may be lost or late, and the
     * simulated failures told apart.
     */
    @Override
    public StoreCapabilities capabilities() {
        return backend.capabilities().toBuilder().async(network).passingOn(this).handOffs(this::awaitNotice)
                .failures(SimulatedNetwork::classify).build();
    }

    // --- a blocking caller's commands: over the network from a simulated thread, at once from the simulation's ---

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return blocking("try " + name, () -> network.tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis),
                () -> backend.tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis));
    }

    @Override
    public PassOn passOn(String name, String token, long fencingToken, String next, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return blocking("pass on " + name,
                () -> network.passOn(name, token, fencingToken, next, leaseMillis, queue, waiterTimeoutMillis),
                () -> new PassOn(release(name, token, fencingToken),
                        backend.tryAcquire(name, next, leaseMillis, queue, waiterTimeoutMillis)));
    }

    @Override
    public boolean release(String name, String token, long fencingToken) {
        return blocking("release " + name, () -> network.release(name, token, fencingToken),
                () -> recordRelease(name, fencingToken, backend.release(name, token, fencingToken)));
    }

    @Override
    public void abandon(String name, String token) {
        blocking("abandon " + name, () -> network.abandon(name, token), () -> {
            backend.abandon(name, token);
            return null;
        });
    }

    @Override
    public boolean extend(String name, String token, long leaseMillis) {
        return blocking("extend " + name, () -> network.extend(name, token, leaseMillis),
                () -> backend.extend(name, token, leaseMillis));
    }

    @Override
    public boolean renew(String name, String token, long leaseMillis) {
        return blocking("renew " + name, () -> network.renew(name, token, leaseMillis),
                () -> backend.renew(name, token, leaseMillis));
    }

    @Override
    public long remainingLeaseMillis(String name, String token) {
        return blocking("remaining " + name, () -> network.remainingLeaseMillis(name, token),
                () -> backend.remainingLeaseMillis(name, token));
    }

    /** {@code sent} and its answer awaited, on a simulated thread; {@code here} on the simulation's own. */
    private <T> T blocking(String command, Supplier<CompletionStage<T>> sent, Supplier<T> here) {
        SimThreads.SimThread caller = threads.current();
        if (caller == null) {
            return here.get();
        }
        boolean interrupted = Thread.currentThread().isInterrupted();
        CompletionStage<T> answer = sent.get();
        if (interrupted) {
            trace.add(caller.id + "'s " + command + " sent with its interrupt flag set");
        }
        return caller.await(answer.toCompletableFuture(), command);
    }

    private HandOffNotices.Subscription awaitNotice(String name, String token, Consumer<Grant> onGrant) {
        return backend.await(name, token, grant -> {
            wire.deliverNotice("notice lost: " + name, () -> onGrant.accept(grant));
        });
    }

    @Override
    public void close() {
        // shared by the simulation's registries: it outlives each of them
    }

    private boolean recordRelease(String name, long fencingToken, boolean freed) {
        if (freed) {
            released.add(name + '#' + fencingToken);
        }
        return freed;
    }

    private <T> CompletionStage<T> send(String description, Supplier<T> command) {
        return wire.send(description, command);
    }

    /** The store's operations as they go over the network. */
    private final AsyncLockStore network = new AsyncLockStore() {

        @Override
        public CompletionStage<AcquireResult> tryAcquire(String name, String token, long leaseMillis, boolean queue,
                long waiterTimeoutMillis) {
            return send("try " + name, () -> backend.tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis));
        }

        @Override
        public CompletionStage<AcquireResult> takePermits(String name, String token, int permits, int limit,
                long leaseMillis, boolean queue, long waiterTimeoutMillis) {
            return send("take " + permits + " of " + name, () -> backend.takePermits(name, token, permits, limit,
                    leaseMillis, queue, waiterTimeoutMillis));
        }

        @Override
        public CompletionStage<Boolean> keepPermits(String name, String token, int permits) {
            return send("keep " + permits + " of " + name, () -> backend.keepPermits(name, token, permits));
        }

        @Override
        public CompletionStage<AcquireResult> leaveQueue(String name, String token, long leaseMillis) {
            return send("leave " + name, () -> backend.leaveQueue(name, token, leaseMillis));
        }

        @Override
        public CompletionStage<Boolean> release(String name, String token, long fencingToken) {
            return send("release " + name + " #" + fencingToken,
                    () -> recordRelease(name, fencingToken, backend.release(name, token, fencingToken)));
        }

        @Override
        public CompletionStage<PassOn> passOn(String name, String token, long fencingToken, String next,
                long leaseMillis, boolean queue, long waiterTimeoutMillis) {
            return send("pass on " + name + " #" + fencingToken, () -> new PassOn(
                    recordRelease(name, fencingToken, backend.release(name, token, fencingToken)),
                    backend.tryAcquire(name, next, leaseMillis, queue, waiterTimeoutMillis)));
        }

        @Override
        public CompletionStage<Void> abandon(String name, String token) {
            return send("abandon " + name, () -> {
                backend.abandon(name, token);
                return null;
            });
        }

        @Override
        public CompletionStage<Boolean> extend(String name, String token, long leaseMillis) {
            return send("extend " + name, () -> backend.extend(name, token, leaseMillis));
        }

        @Override
        public CompletionStage<Boolean> renew(String name, String token, long leaseMillis) {
            return send("renew " + name, () -> backend.renew(name, token, leaseMillis));
        }

        @Override
        public CompletionStage<Long> remainingLeaseMillis(String name, String token) {
            return send("remaining " + name, () -> backend.remainingLeaseMillis(name, token));
        }
    };
}
