package dev.distlock.core.support;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockEvent;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One call that wants the lock: enters the local queue, then tries the store until it wins or its time
 * is up, sleeping between tries until the store reports a release, the holder's lease runs out, or the
 * poll interval passes. On every way out without the lock it leaves nothing behind in the backend.
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
        Hold hold = null;
        LockStore.Subscription subscription = null;
        Semaphore released = new Semaphore(0);
        try {
            while (true) {
                String token = registry.newToken();
                AcquireResult result = tryOnce(token, subscription != null);
                if (result.acquired()) {
                    hold = new Hold(state, name, label, token, result.fencingToken(), leaseMillis, renewed);
                    return hold;
                }
                long remaining = remainingNanos();
                if (remaining <= 0) {
                    return null;
                }
                if (subscription == null) {
                    // subscribe, then try again at once: a release between the first try and the
                    // subscription would otherwise go unnoticed until the next poll
                    subscription = store.onRelease(name, released::release);
                    continue;
                }
                await(released, Math.min(remaining, pollPauseNanos(result.remainingLeaseMillis())));
                released.drainPermits();
            }
        } finally {
            if (subscription != null) {
                subscription.close();
            }
            if (hold == null) {
                state.gate.release();
            }
        }
    }

    /**
     * One atomic try. If the thread is interrupted during the call the store may still have granted the
     * lock, so the token is released (the compare-and-delete cannot touch anyone else's key).
     */
    private AcquireResult tryOnce(String token, boolean waiting) throws InterruptedException {
        try {
            AcquireResult result = store.tryAcquire(name, token, leaseMillis, waiting);
            if (result.acquired() && interruptible && Thread.interrupted()) {
                releaseQuietly(token);
                throw new InterruptedException("Interrupted while acquiring lock '" + name + "'; it was released");
            }
            return result;
        } catch (RuntimeException failure) {
            if (!Thread.interrupted()) {
                throw new LockBackendException(name, "acquire", failure);
            }
            releaseQuietly(token);
            if (interruptible) {
                throw new InterruptedException("Interrupted while acquiring lock '" + name + "'");
            }
            interruptedWhileWaiting = true;
            return AcquireResult.heldByOther(0);
        }
    }

    private void releaseQuietly(String token) {
        try {
            store.release(name, token);
        } catch (RuntimeException ignored) {
            // the key then expires with its lease; nobody else's key is affected
        }
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
}
