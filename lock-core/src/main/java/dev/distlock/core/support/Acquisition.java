package dev.distlock.core.support;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockEvent;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * One call that wants the lock: enters the local queue (the name's gate), then tries the store with a fresh
 * token. If the lock is busy it queues in the store and sleeps until a release hands the lock to it, asking
 * the store again when the poll interval (or the holder's lease) passes without a notice.
 *
 * <p>Every way out without the lock leaves nothing behind: a try whose reply was lost (a failure, a
 * timeout, an interrupt during the call) may have queued the token or even taken the lock, so the token is
 * abandoned in the background ({@link Cleanup}) and never used again; an uninterruptible {@code lock()}
 * then starts over with a new token. Backend calls run with the interrupt flag cleared, so an interrupt
 * breaks a wait, never a command in flight.
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
    /** An interrupt that an uninterruptible acquisition waited through; the flag is set again at the end. */
    private boolean interrupted;
    /** Whether a try found the name held: transient errors after it end the call as a timeout, not an error. */
    private boolean sawHeld;
    private final TransientRetries retries;

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
        this.retries = new TransientRetries(error -> registry.listeners().acquireRetrying(failure(error)));
    }

    /** Returns the new hold, or {@code null} if the wait ran out. */
    Hold run() throws InterruptedException {
        try {
            Hold hold = awaitGate() ? acquireInStore() : null;
            if (hold == null) {
                registry.listeners().acquireFailed(failure(null));
            }
            return hold;
        } catch (InterruptedException | RuntimeException failure) {
            registry.listeners().acquireFailed(failure(failure));
            throw failure;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    Duration waited() {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private LockEvent failure(Throwable error) {
        return new LockEvent(name, label, 0, waited(), error);
    }

    private Hold acquireInStore() throws InterruptedException {
        Hold hold = null;
        try {
            while (hold == null) {
                registry.checkOpen(name);
                Waiter waiter = new Waiter(registry.newToken());
                try {
                    hold = waiter.acquire();
                    if (hold == null) {
                        return null;
                    }
                } catch (OutOfTime end) {
                    return null;
                } catch (Restart restart) {
                    // a transient error, an interrupt that broke a command of lock(), or a reply too late to
                    // count: that token was abandoned, go on with a new one (after a short pause for an error)
                    retries.pause(this::sleep);
                }
            }
            return hold;
        } finally {
            if (hold == null) {
                state.gate.release();
            }
        }
    }

    /** Waits for the name's gate until the deadline, honouring or recording interrupts. */
    private boolean awaitGate() throws InterruptedException {
        if (waitNanos == Long.MAX_VALUE) {
            if (interruptible) {
                state.gate.acquire();
            } else {
                state.gate.acquireUninterruptibly();
                interrupted |= Thread.interrupted();
            }
            return true;
        }
        return await(state.gate, remainingNanos());
    }

    /** Sleeps up to {@code nanos} (never past the wait), honouring or recording interrupts. */
    private void sleep(long nanos) throws InterruptedException {
        await(new Semaphore(0), Math.min(nanos, Math.max(0, remainingNanos())));
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
                interrupted = true;
            }
        }
    }

    private long remainingNanos() {
        if (waitNanos == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        return waitNanos - (System.nanoTime() - startNanos);
    }

    /** When the wait ends (only meaningful for a bounded wait). */
    private long deadlineNanos() {
        return startNanos + waitNanos;
    }

    private static boolean causedByInterrupt(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedException || cause.getClass().getSimpleName().contains("Interrupted")) {
                return true;
            }
        }
        return false;
    }

    /** One token's attempt: its tries, its place in the store's queue and the notice that it was handed the lock. */
    final class Waiter implements Consumer<Grant> {

        private final String token;
        private final Semaphore notified = new Semaphore(0);
        private volatile Grant grant;
        /** When the last answered try was sent, and the store's clock when it ran. */
        private long lastSentNanos;
        private long lastServerMillis;
        /** Whether the token may hold the lock or a queue entry in the store that no hold owns. */
        private boolean mayHoldSomething;
        /** Whether a command of the token got no reply: it may still run. */
        private boolean outcomeUnknown;
        /** When the last try was answered; whether the caller's wait is over, so that its clean-up runs behind it. */
        private long answeredNanos;
        private boolean late;

        Waiter(String token) {
            this.token = token;
        }

        @Override
        public void accept(Grant handedOver) {
            grant = handedOver;
            notified.release();
        }

        /** Wakes the waiter because its registry closes. */
        void wakeForClose() {
            notified.release();
        }

        Hold acquire() throws InterruptedException {
            boolean waits = waitNanos > 0;
            LockStore.Subscription subscription = null;
            if (waits) {
                subscription = store.onGrant(name, token, this);
                registry.waiting(this);
            }
            try {
                AcquireResult result = tryOnce(waits);
                if (!result.acquired() && waits && !store.listening() && remainingNanos() > 0) {
                    awaitListening();
                    // a hand-off before the registry heard them would go unnoticed until the next poll
                    result = tryOnce(true);
                }
                while (!result.acquired()) {
                    long remaining = remainingNanos();
                    if (registry.isClosed()) {
                        withdraw();
                    }
                    if (remaining <= 0) {
                        // at most one command after the wait: leaving the queue tells whether it was handed over
                        // meanwhile; if the last poll already answered after the wait, the clean-up leaves for it
                        if (answeredNanos - deadlineNanos() > 0) {
                            late = true;
                            return null;
                        }
                        return leave();
                    }
                    long pause = HoldClock.pollPauseNanos(registry.maxPollMillis(), result.holderLeaseMillis());
                    if (await(notified, Math.min(remaining, pause))) {
                        Hold handedOver = trustedNotice();
                        if (handedOver != null) {
                            return handedOver;
                        }
                    }
                    if (!registry.isClosed() && remainingNanos() > 0) {
                        result = tryOnce(true);
                    }
                }
                return counted(result.fencingToken(), lastSentNanos, true);
            } finally {
                if (subscription != null) {
                    subscription.close();
                    registry.doneWaiting(this);
                }
                if (mayHoldSomething) {
                    abandon();
                }
            }
        }

        /**
         * The hold a hand-off notice gave, if enough of its claim is left to trust it without asking the
         * store: the notice says when (on the store's clock) the lock was handed over, and the last try says
         * which local moment that clock's reading follows, so the deadline errs on the early side even if the
         * notice was read late (a paused waiter). A notice of a hand-off older than the last try is stale:
         * that try saw the lock later and did not find it this token's. Otherwise the next try asks the store,
         * which confirms the hold only if it is still this token's.
         */
        private Hold trustedNotice() {
            Grant notice = grant;
            if (notice == null || !store.trustsNotices() || notice.serverTimeMillis() < lastServerMillis) {
                // no notice, or one older than the last try, which saw the lock after it and found it busy
                return null;
            }
            long validUntil = HoldClock.noticeValidUntil(lastSentNanos,
                    notice.serverTimeMillis() - lastServerMillis, notice.leaseMillis());
            if (!HoldClock.trustsNotice(validUntil, notice.leaseMillis(), System.nanoTime())) {
                return null;
            }
            return handedHold(notice.fencingToken(), validUntil);
        }

        /** One atomic try, with the interrupt flag cleared. */
        private AcquireResult tryOnce(boolean queue) throws InterruptedException {
            checkInterrupt();
            mayHoldSomething = true;
            long sent = System.nanoTime();
            AcquireResult result;
            try {
                result = store.tryAcquire(name, token, leaseMillis, queue, registry.waiterTimeoutMillis());
            } catch (RuntimeException failure) {
                outcomeUnknown = true;
                if (Thread.interrupted() || causedByInterrupt(failure)) {
                    if (interruptible) {
                        throw interruptedWhile(failure);
                    }
                    interrupted = true;
                    throw Restart.INSTANCE;
                }
                if (store.isTransient(failure)) {
                    retries.failed(failure);
                    if (retries.retryWithin(remainingNanos())) {
                        throw Restart.INSTANCE;
                    }
                    if (sawHeld) {
                        // the name was held when the store last answered: the wait ran out, as for any busy lock
                        throw OutOfTime.INSTANCE;
                    }
                }
                throw new LockBackendException(name, "acquire", failure);
            }
            lastSentNanos = sent;
            answeredNanos = System.nanoTime();
            lastServerMillis = result.serverTimeMillis();
            retries.answered();
            sawHeld |= !result.acquired();
            if (!result.acquired() && !queue) {
                mayHoldSomething = false;
            }
            if (result.acquired() && interruptible && Thread.interrupted()) {
                // the lock was taken as the interrupt came: the clean-up releases it again
                throw new InterruptedException("Interrupted while acquiring lock '" + name + "'; it is released again");
            }
            return result;
        }

        /** The wait ran out: leave the queue, keeping the lock if it was handed over meanwhile. */
        private Hold leave() {
            if (!mayHoldSomething) {
                return null;
            }
            boolean flag = clearInterrupt();
            long sent = System.nanoTime();
            try {
                AcquireResult result = store.leaveQueue(name, token, leaseMillis);
                mayHoldSomething = result.acquired();
                return result.acquired() ? counted(result.fencingToken(), sent, false) : null;
            } catch (RuntimeException failure) {
                outcomeUnknown = true; // the clean-up takes over
                return null;
            } finally {
                restoreInterrupt(flag);
            }
        }

        /**
         * Leaves nothing behind: the queue entry, and the lock if it was taken or handed over. At once while
         * the store answers, so the next release does not hand the lock to this token; in the background if
         * a command got no reply (the store may not answer now, and the command may still run) or the caller's
         * wait is over.
         */
        private void abandon() {
            if (!outcomeUnknown && !late) {
                try {
                    StoreLockRegistry.uninterrupted(() -> {
                        store.abandon(name, token);
                        return null;
                    });
                    return;
                } catch (RuntimeException failure) {
                    outcomeUnknown = true;
                }
            }
            registry.cleanup().abandon(name, token, leaseMillis, outcomeUnknown);
        }

        /** The registry closes: leave the queue and anything handed over, then fail the call. */
        private void withdraw() {
            boolean flag = clearInterrupt();
            try {
                store.abandon(name, token);
                mayHoldSomething = false;
            } catch (RuntimeException failure) {
                outcomeUnknown = true;
            } finally {
                restoreInterrupt(flag);
            }
            throw new IllegalStateException("Lock '" + name + "' was not acquired: its registry was closed while "
                    + "the call waited");
        }

        private void awaitListening() throws InterruptedException {
            CompletableFuture<Void> listening = store.listen();
            long nanos = Math.min(remainingNanos(), TimeUnit.MILLISECONDS.toNanos(registry.maxPollMillis()));
            try {
                listening.get(nanos, TimeUnit.NANOSECONDS);
            } catch (InterruptedException ex) {
                if (interruptible) {
                    throw ex;
                }
                interrupted = true;
            } catch (ExecutionException | TimeoutException notYet) {
                // waiters poll until hand-offs are heard
            }
        }

        /**
         * The hold a reply to a command sent at {@code sentNanos} gave, if enough of its lease is left to count
         * ({@link HoldClock#validEnough}). If not, the token keeps what it may hold, so that it is abandoned on
         * the way out, and the acquisition tries anew with another token while its wait lasts ({@code mayRetry}).
         */
        private Hold counted(long fencingToken, long sentNanos, boolean mayRetry) {
            if (HoldClock.validEnough(HoldClock.validUntil(sentNanos, leaseMillis), leaseMillis, System.nanoTime())) {
                return hold(fencingToken, sentNanos);
            }
            if (mayRetry && remainingNanos() > 0) {
                throw Restart.INSTANCE;
            }
            return null;
        }

        /** The hold a try (or leaving the queue) sent at {@code sentNanos} gave, with the full lease. */
        private Hold hold(long fencingToken, long sentNanos) {
            mayHoldSomething = false;
            return new Hold(state, name, label, token, fencingToken, leaseMillis, renewed,
                    HoldClock.validUntil(sentNanos, leaseMillis), false,
                    sentNanos + HoldClock.renewalPeriodNanos(leaseMillis));
        }

        /**
         * The hold a hand-off notice gave, with the claim lease until {@code validUntilNanos}. It is confirmed
         * (extended to the full lease) a third into the claim, so a short hold ends before it costs a call.
         */
        private Hold handedHold(long fencingToken, long validUntilNanos) {
            mayHoldSomething = false;
            return new Hold(state, name, label, token, fencingToken, leaseMillis, renewed, validUntilNanos, true,
                    HoldClock.confirmationDue(System.nanoTime(), validUntilNanos));
        }

        private void checkInterrupt() throws InterruptedException {
            if (Thread.interrupted()) {
                if (interruptible) {
                    throw new InterruptedException("Interrupted while acquiring lock '" + name + "'");
                }
                interrupted = true;
            }
        }

        private InterruptedException interruptedWhile(Throwable failure) {
            InterruptedException interrupt = new InterruptedException("Interrupted while acquiring lock '" + name
                    + "'; the try in flight is cleaned up in the background");
            interrupt.initCause(failure);
            return interrupt;
        }

        private boolean clearInterrupt() {
            return Thread.interrupted();
        }

        private void restoreInterrupt(boolean wasInterrupted) {
            if (wasInterrupted) {
                if (interruptible) {
                    Thread.currentThread().interrupt();
                } else {
                    interrupted = true;
                }
            }
        }
    }

    /** Thrown inside an acquisition whose wait ran out during transient errors after the name was seen held. */
    private static final class OutOfTime extends RuntimeException {

        private static final long serialVersionUID = 1L;
        static final OutOfTime INSTANCE = new OutOfTime();

        private OutOfTime() {
            super("out of time", null, false, false);
        }
    }

    /** Thrown inside an uninterruptible acquisition to start over with a new token. */
    private static final class Restart extends RuntimeException {

        private static final long serialVersionUID = 1L;
        static final Restart INSTANCE = new Restart();

        private Restart() {
            super("restart", null, false, false);
        }
    }
}
