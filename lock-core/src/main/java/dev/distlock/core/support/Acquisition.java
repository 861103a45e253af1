package dev.distlock.core.support;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockEvent;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * One call that wants the lock: enters the local queue, then tries the store. If the lock is busy it joins
 * the store's queue and sleeps until a release hands the lock to it, asking the store again when the poll
 * interval passes without a hand-off (or the holder's lease runs out). On every way out without the lock it
 * leaves the queue and holds nothing in the backend.
 */
final class Acquisition {

    private final StoreLockRegistry registry;
    private final LockStore store;
    private final NameState state;
    private final String name;
    private final String label;
    private final long leaseMillis;
    private final boolean renewed;
    private final boolean interruptible;
    private final long startNanos = System.nanoTime();
    private final long waitNanos;
    private boolean interruptedWhileWaiting;

    Acquisition(StoreLockRegistry registry, NameState state, String name, String label, long leaseMillis,
            boolean renewed, long waitNanos, boolean interruptible) {
        this.registry = registry;
        this.store = registry.store();
        this.state = state;
        this.name = name;
        this.label = label;
        this.leaseMillis = leaseMillis;
        this.renewed = renewed;
        this.waitNanos = Math.max(0, waitNanos);
        this.interruptible = interruptible;
    }

    /** Returns the new hold, or {@code null} if the wait ran out. */
    Hold run() throws InterruptedException {
        try {
            Hold hold = await(state.gate) ? acquireInStore() : null;
            if (hold == null) {
                registry.listeners().acquireFailed(failure(null));
            }
            return hold;
        } catch (InterruptedException | RuntimeException failure) {
            registry.listeners().acquireFailed(failure(failure));
            throw failure;
        } finally {
            if (interruptedWhileWaiting) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private LockEvent failure(Throwable error) {
        return new LockEvent(name, label, 0, waited(), error);
    }

    Duration waited() {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private Hold acquireInStore() throws InterruptedException {
        String token = registry.newToken();
        Grant grant = new Grant();
        LockStore.Subscription subscription = null;
        boolean queued = false;
        Hold hold = null;
        try {
            // a waiter joins the queue on its first try only if it hears hand-offs already; otherwise it
            // subscribes first, so that no hand-off to it goes unheard, and costs nothing uncontended
            if (waitNanos > 0 && store.listening(name)) {
                subscription = store.onGrant(name, token, grant);
            }
            queued = subscription != null;
            AcquireResult result = tryOnce(token, queued ? LockStore.Queue.JOIN : LockStore.Queue.NONE);
            while (!result.acquired()) {
                long remaining = remainingNanos();
                if (remaining <= 0) {
                    // a hand-off may have come just before leaving the queue: then the lock is ours
                    result = queued ? leave(token) : result;
                    queued = false;
                    if (!result.acquired()) {
                        return null;
                    }
                } else if (subscription == null) {
                    subscription = store.onGrant(name, token, grant);
                    queued = true;
                    result = tryOnce(token, LockStore.Queue.JOIN);
                } else if (await(grant.received, Math.min(remaining, pollPauseNanos(result.remainingLeaseMillis())))) {
                    result = AcquireResult.acquired(grant.fencingToken);
                } else {
                    // no hand-off heard in a while: the notice may be lost, or the holder gone
                    result = tryOnce(token, LockStore.Queue.STAY);
                }
            }
            queued = false;
            hold = new Hold(state, name, label, token, result.fencingToken(), leaseMillis, renewed);
            return hold;
        } finally {
            if (subscription != null) {
                subscription.close();
            }
            if (hold == null) {
                if (queued) {
                    abandon(token);
                }
                state.gate.release();
            }
        }
    }

    /**
     * One atomic try. If the thread is interrupted during the call the store may still have granted the
     * lock or queued the token, so the acquisition is abandoned (which cannot touch anyone else's hold).
     */
    private AcquireResult tryOnce(String token, LockStore.Queue queue) throws InterruptedException {
        try {
            AcquireResult result = store.tryAcquire(name, token, leaseMillis, queue);
            if (result.acquired() && interruptible && Thread.interrupted()) {
                abandon(token);
                throw new InterruptedException("Interrupted while acquiring lock '" + name + "'; it was released");
            }
            return result;
        } catch (RuntimeException failure) {
            if (!Thread.interrupted()) {
                throw new LockBackendException(name, "acquire", failure);
            }
            abandon(token);
            if (interruptible) {
                throw new InterruptedException("Interrupted while acquiring lock '" + name + "'");
            }
            interruptedWhileWaiting = true;
            return AcquireResult.heldByOther(0);
        }
    }

    private AcquireResult leave(String token) {
        return StoreLockRegistry.backend(name, "leave the queue",
                () -> StoreLockRegistry.uninterrupted(() -> store.leaveQueue(name, token, leaseMillis)));
    }

    /**
     * Leaves the queue, then releases the lock in case this token holds it (handed over, or taken by a try
     * whose reply was lost to an interrupt); failures leave both to expire.
     */
    private void abandon(String token) {
        StoreLockRegistry.uninterrupted(() -> {
            try {
                store.leaveQueue(name, token, leaseMillis);
                store.release(name, token);
            } catch (RuntimeException ignored) {
                // the queue entry and any hold expire; nobody else's hold is affected
            }
            return null;
        });
    }

    /** Waits for a permit until the deadline, honouring or recording interrupts. */
    private boolean await(Semaphore semaphore) throws InterruptedException {
        if (waitNanos != Long.MAX_VALUE) {
            return await(semaphore, remainingNanos());
        }
        if (interruptible) {
            semaphore.acquire();
        } else {
            semaphore.acquireUninterruptibly();
            interruptedWhileWaiting |= Thread.interrupted();
        }
        return true;
    }

    private boolean await(Semaphore semaphore, long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        while (true) {
            try {
                return semaphore.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException ex) {
                if (interruptible) {
                    throw ex;
                }
                interruptedWhileWaiting = true;
            }
        }
    }

    private long remainingNanos() {
        if (waitNanos == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        return waitNanos - (System.nanoTime() - startNanos);
    }

    /**
     * How long to sleep when no release is reported: until the holder's lease runs out if that comes
     * first, else the poll interval less up to a tenth of jitter so waiters of many processes spread out.
     */
    private long pollPauseNanos(long holderLeaseMillis) {
        long poll = registry.maxPollMillis();
        poll -= ThreadLocalRandom.current().nextLong(poll / 10 + 1);
        long millis = holderLeaseMillis >= 0 ? Math.min(holderLeaseMillis + 1, poll) : poll;
        return TimeUnit.MILLISECONDS.toNanos(Math.max(1, millis));
    }

    /** Hears the hand-off to this acquisition. */
    private static final class Grant implements LongConsumer {

        final Semaphore received = new Semaphore(0);
        volatile long fencingToken;

        @Override
        public void accept(long fencingToken) {
            this.fencingToken = fencingToken;
            received.release();
        }
    }
}
