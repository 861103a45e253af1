package dev.distlock.engine;

import dev.distlock.core.LockEvent;
import dev.distlock.core.LockListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A listener that records what it hears, with a latch for the first loss. */
final class Events implements LockListener {

    final List<LockEvent> acquired = new CopyOnWriteArrayList<>();
    final List<LockEvent> lost = new CopyOnWriteArrayList<>();
    final List<LockEvent> released = new CopyOnWriteArrayList<>();
    final List<LockEvent> renewalFailed = new CopyOnWriteArrayList<>();
    final List<LockEvent> acquireFailed = new CopyOnWriteArrayList<>();
    final List<LockEvent> acquireRetrying = new CopyOnWriteArrayList<>();
    final List<LockEvent> releaseFailed = new CopyOnWriteArrayList<>();
    private final CountDownLatch firstLoss = new CountDownLatch(1);

    @Override
    public void onAcquired(LockEvent event) {
        acquired.add(event);
    }

    @Override
    public void onLost(LockEvent event) {
        lost.add(event);
        firstLoss.countDown();
    }

    @Override
    public void onReleased(LockEvent event) {
        released.add(event);
    }

    @Override
    public void onRenewalFailed(LockEvent event) {
        renewalFailed.add(event);
    }

    @Override
    public void onAcquireFailed(LockEvent event) {
        acquireFailed.add(event);
    }

    @Override
    public void onAcquireRetrying(LockEvent event) {
        acquireRetrying.add(event);
    }

    @Override
    public void onReleaseFailed(LockEvent event) {
        releaseFailed.add(event);
    }

    /** Waits (at most {@code seconds}) for the first loss. */
    boolean awaitLoss(long seconds) throws InterruptedException {
        return firstLoss.await(seconds, TimeUnit.SECONDS);
    }
}
