package dev.distlock.aop;

import dev.distlock.aop.LockCallObserver.HoldEnd;
import dev.distlock.aop.LockCallObserver.Holding;
import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockLostException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The hold of one {@link dev.distlock.annotation.DistributedLock @DistributedLock} call: how it was acquired (by a
 * thread, or as a pending future for no thread), how it is released (once, keeping a minimum hold, reporting to the
 * call's observer). Its public face is {@link LockContext}; where it is current is the thread's {@link CallStack}.
 */
final class CallHold {

    private final String key;
    /** The registry the lock comes from: a nested call on the same key of the same registry runs under this hold. */
    private final Object registry;
    private final String label;
    /** Per name: one entry, or one per name of a lock on several names. */
    private final Map<String, Long> fencingTokens;
    /** The hold as its acquiring thread sees it. */
    private final FencedLock lock;
    private final Thread owner;
    /** How long the lock stays taken at least, from {@link #startNanos}; zero for no minimum. */
    private final Duration holdAtLeast;
    private final long startNanos;
    private final Holding observed;
    /** The hold when no thread owns it (acquired without blocking), else {@code null}. */
    private final DetachedLock detached;
    private final AtomicBoolean released = new AtomicBoolean();
    private final LockContext view = new LockContext(this);

    private CallHold(String key, Object registry, Map<String, Long> fencingTokens, FencedLock lock, Thread owner,
            DetachedLock detached, String label, Duration holdAtLeast, Holding observed) {
        this.key = key;
        this.registry = registry;
        this.label = label;
        this.fencingTokens = fencingTokens;
        this.lock = lock;
        this.owner = owner;
        this.detached = detached;
        this.holdAtLeast = holdAtLeast;
        this.startNanos = System.nanoTime();
        this.observed = observed;
    }

    /**
     * A hold the current thread has just acquired through {@code lock}.
     *
     * @param holdAtLeast how long from now the lock stays taken at least, even if released sooner
     * @param observed the observer of the hold
     */
    static CallHold ofThread(FencedLock lock, Object registry, String label, Duration holdAtLeast,
            Holding observed) {
        return new CallHold(lock.name(), registry, lock.fencingTokens(), lock, Thread.currentThread(), null, label,
                holdAtLeast, observed);
    }

    /** A hold that no thread owns, acquired without blocking; see {@link #ofThread}. */
    static CallHold ofDetached(DetachedLock hold, Object registry, String label, Duration holdAtLeast,
            Holding observed) {
        return new CallHold(hold.name(), registry, hold.fencingTokens(), null, null, hold, label, holdAtLeast,
                observed);
    }

    /** The public view of this hold. */
    LockContext view() {
        return view;
    }

    String key() {
        return key;
    }

    String label() {
        return label;
    }

    long fencingToken() {
        if (fencingTokens.size() > 1) {
            throw new IllegalStateException("The lock of " + label + " holds several names, " + key + ", each with a "
                    + "fencing token of its own: use fencingTokens()");
        }
        return fencingTokens.values().iterator().next();
    }

    Map<String, Long> fencingTokens() {
        return fencingTokens;
    }

    /** See {@link LockContext#isHeld()}. */
    boolean isHeld() {
        if (released.get()) {
            return false;
        }
        DetachedLock hold = detached;
        if (hold != null) {
            return hold.isHeld();
        }
        return Thread.currentThread() != owner || lock.isHeldByCurrentThread();
    }

    /**
     * Asks the backend whether this hold, if not released yet, is still its owner's (see
     * {@link FencedLock#verifyHeld()}); for a hold owned by a thread, on that thread.
     *
     * @throws LockLostException saying why, if it is lost
     */
    void verifyHeld() {
        if (released.get()) {
            return;
        }
        if (detached != null) {
            detached.verifyHeld();
        } else {
            lock.verifyHeld();
        }
    }

    /** {@link #verifyHeld()} without blocking, for a hold that no thread owns (the holds a Reactor subscription sees). */
    CompletionStage<Void> verifyHeldAsync() {
        return released.get() ? CompletableFuture.completedFuture(null) : detached.verifyHeldAsync();
    }

    /** Runs the method with this context as the innermost one of the current thread. */
    Object invokeCurrent(MethodInvoker invoker) throws Throwable {
        return CallStack.runAs(this, () -> observed.around(invoker));
    }

    /** Runs the method of a call nested in this one under this hold, as the innermost context of this thread. */
    Object invokeNested(MethodInvoker invoker) throws Throwable {
        return CallStack.runAs(this, invoker);
    }

    /** Whether this is a hold of {@code key} from {@code registry} that no thread owns, still held. */
    boolean isDetachedHoldOf(Object registry, String key) {
        return detached != null && this.registry == registry && this.key.equals(key) && isHeld();
    }

    /**
     * Releases the hold once, from the owning thread or (once detached) from any thread; with a minimum hold
     * not yet over, leaves the lock taken in the backend for the rest of it.
     */
    void release() {
        end(null);
    }

    /** Releases after {@code failure}: a release failure is added to it rather than replacing it. */
    void releaseAfter(Throwable failure) {
        try {
            end(failure);
        } catch (RuntimeException releaseFailure) {
            failure.addSuppressed(releaseFailure);
        }
    }

    private void end(Throwable methodFailure) {
        if (!released.compareAndSet(false, true)) {
            return;
        }
        try {
            unlock(remainingMinimumHold());
        } catch (RuntimeException | Error failure) {
            observed.ended(endAfter(failure), methodFailure);
            throw failure;
        }
        observed.ended(HoldEnd.RELEASED, methodFailure);
    }

    /** How a release that failed with {@code failure} ended the hold ({@code null}: released). */
    private static HoldEnd endAfter(Throwable failure) {
        if (failure == null) {
            return HoldEnd.RELEASED;
        }
        return failure instanceof LockLostException ? HoldEnd.LOST : HoldEnd.RELEASE_FAILED;
    }

    private void unlock(Duration keepFor) {
        DetachedLock hold = detached;
        if (keepFor.isZero()) {
            if (hold != null) {
                hold.unlock();
            } else {
                lock.unlock();
            }
        } else if (hold != null) {
            hold.unlockAfter(keepFor);
        } else {
            lock.unlockAfter(keepFor);
        }
    }

    /** What is left of the minimum hold, in whole milliseconds (the backend's resolution); zero when over. */
    private Duration remainingMinimumHold() {
        if (holdAtLeast.isZero()) {
            return Duration.ZERO;
        }
        long leftMillis = holdAtLeast.minusNanos(System.nanoTime() - startNanos).toMillis();
        return leftMillis > 0 ? Duration.ofMillis(leftMillis) : Duration.ZERO;
    }

    /**
     * Releases a detached hold once, without blocking: the stage completes when the backend answered. After the
     * method failed ({@code methodFailure}), a release failure is added to that failure and the stage completes
     * normally; otherwise it fails the stage.
     */
    CompletionStage<Void> releaseAsync(Throwable methodFailure) {
        if (!released.compareAndSet(false, true)) {
            return CompletableFuture.completedFuture(null);
        }
        Duration keepFor = remainingMinimumHold();
        CompletionStage<Void> unlocked = keepFor.isZero() ? detached.unlockAsync() : detached.unlockAfterAsync(keepFor);
        return unlocked.handle((done, error) -> {
            Throwable failure = error instanceof CompletionException wrapped && wrapped.getCause() != null
                    ? wrapped.getCause() : error;
            observed.ended(endAfter(failure), methodFailure);
            if (failure == null) {
                return null;
            }
            if (methodFailure != null) {
                methodFailure.addSuppressed(failure);
                return null;
            }
            throw failure instanceof RuntimeException runtime ? runtime : new CompletionException(failure);
        });
    }

    /**
     * Releases, ignoring a failure (the registry's listeners hear of it): for holds nobody waits on. A detached hold
     * is released without blocking the calling thread.
     */
    void releaseQuietly() {
        if (detached != null) {
            releaseAsync(null).exceptionally(failure -> null);
            return;
        }
        try {
            release();
        } catch (RuntimeException ignored) {
            // reported to the registry's listeners as a release failure; the key expires with its lease
        }
    }

    @Override
    public String toString() {
        return view.toString();
    }
}
