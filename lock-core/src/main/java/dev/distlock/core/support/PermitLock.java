package dev.distlock.core.support;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LeasedSemaphore;
import dev.distlock.core.LockLostException;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * One permit of a {@link LeasedSemaphore} as a {@link FencedLock} ({@link LeasedSemaphore#asLock()}): the handle
 * takes a permit for the thread that locks it and gives it back when that thread unlocks it, so code written for a
 * lock (the annotation, {@code executeLocked}) limits how many run at once instead. One handle holds at most one
 * permit at a time; its holder thread may lock it again (a count, no second permit).
 */
final class PermitLock implements FencedLock {

    private final LeasedSemaphore semaphore;
    /** The permit held through this handle, and its thread and count; guarded by this. */
    private DetachedLock permit;
    private Thread holder;
    private int count;

    PermitLock(LeasedSemaphore semaphore) {
        this.semaphore = semaphore;
    }

    @Override
    public String name() {
        return semaphore.name();
    }

    @Override
    public boolean tryLock(Duration wait) throws InterruptedException {
        if (reentered()) {
            return true;
        }
        return took(semaphore.tryAcquire(1, wait));
    }

    @Override
    public void lock() {
        boolean interrupted = false;
        while (true) {
            try {
                tryLock(Duration.ofNanos(Long.MAX_VALUE));
                break;
            } catch (InterruptedException ex) {
                interrupted = true; // lock() waits through interrupts, and sets the flag again
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        tryLock(Duration.ofNanos(Long.MAX_VALUE));
    }

    private synchronized boolean reentered() {
        if (holder == Thread.currentThread()) {
            if (!permit.isHeld()) {
                throw new LockLostException(name(), "the permit this thread holds through this handle was lost; "
                        + "unlock() it before taking another");
            }
            count++;
            return true;
        }
        if (permit != null) {
            throw new IllegalMonitorStateException("Semaphore '" + name() + "': this handle holds a permit of another "
                    + "thread; take a handle per caller (asLock())");
        }
        return false;
    }

    private synchronized boolean took(DetachedLock taken) {
        if (taken == null) {
            return false;
        }
        permit = taken;
        holder = Thread.currentThread();
        count = 1;
        return true;
    }

    @Override
    public void unlock() {
        DetachedLock ending = leaveOnce();
        if (ending != null) {
            ending.unlock();
        }
    }

    @Override
    public void unlockAfter(Duration delay) {
        DetachedLock ending = leaveOnce();
        if (ending != null) {
            ending.unlockAfter(delay);
        }
    }

    /** One count of the current thread given back: the permit, if it was the last, else {@code null}. */
    private synchronized DetachedLock leaveOnce() {
        held();
        if (--count > 0) {
            return null;
        }
        DetachedLock ending = permit;
        permit = null;
        holder = null;
        return ending;
    }

    /** The current thread's permit. */
    private synchronized DetachedLock held() {
        if (holder != Thread.currentThread()) {
            throw new IllegalMonitorStateException("Semaphore '" + name() + "': the current thread holds no permit "
                    + "through this handle");
        }
        return permit;
    }

    /** Whether this handle holds a live permit (not whether any process holds one: a semaphore has several). */
    @Override
    public synchronized boolean isLocked() {
        return permit != null && permit.isHeld();
    }

    @Override
    public synchronized boolean isHeldByCurrentThread() {
        return holder == Thread.currentThread() && permit.isHeld();
    }

    @Override
    public synchronized int holdCount() {
        return holder == Thread.currentThread() ? count : 0;
    }

    @Override
    public long fencingToken() {
        return held().fencingToken();
    }

    @Override
    public void extend(Duration lease) {
        held().extend(lease);
    }

    @Override
    public Duration remainingLease() {
        return held().remainingLease();
    }

    @Override
    public void verifyHeld() {
        held().verifyHeld();
    }

    @Override
    public synchronized DetachedLock detach() {
        DetachedLock detached = held();
        permit = null;
        holder = null;
        count = 0;
        return detached;
    }

    @Override
    public CompletionStage<DetachedLock> tryLockAsync(Duration wait) {
        return semaphore.tryAcquireAsync(1, wait);
    }

    @Override
    public CompletionStage<DetachedLock> lockAsync() {
        return semaphore.acquireAsync();
    }

    @Override
    public String toString() {
        return "FencedLock[permit of " + semaphore + "]";
    }
}
