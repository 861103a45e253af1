package dev.distlock.test.contract;

import dev.distlock.core.LockListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A {@link LockListener} that records every event, for assertions. */
public final class RecordingListener implements LockListener {

    /** One recorded call. */
    public record Event(String type, String lockName, long fencingToken, Throwable error) {
    }

    private final List<Event> events = new CopyOnWriteArrayList<>();
    private final CountDownLatch firstLoss = new CountDownLatch(1);

    @Override
    public void onAcquired(String lockName, long fencingToken, Duration waited) {
        events.add(new Event("acquired", lockName, fencingToken, null));
    }

    @Override
    public void onAcquireFailed(String lockName, Duration waited, Throwable error) {
        events.add(new Event("acquireFailed", lockName, 0, error));
    }

    @Override
    public void onReleased(String lockName, long fencingToken, Duration held) {
        events.add(new Event("released", lockName, fencingToken, null));
    }

    @Override
    public void onLost(String lockName, long fencingToken, Duration held) {
        events.add(new Event("lost", lockName, fencingToken, null));
        firstLoss.countDown();
    }

    @Override
    public void onRenewalFailed(String lockName, Throwable error) {
        events.add(new Event("renewalFailed", lockName, 0, error));
    }

    @Override
    public void onReleaseFailed(String lockName, Throwable error) {
        events.add(new Event("releaseFailed", lockName, 0, error));
    }

    /** Every event so far, in order. */
    public List<Event> events() {
        return List.copyOf(events);
    }

    /** The events of one type, in order. */
    public List<Event> events(String type) {
        return events.stream().filter(event -> event.type().equals(type)).toList();
    }

    /** Waits at most {@code timeout} for the first loss; returns whether one was reported. */
    public boolean awaitLoss(Duration timeout) throws InterruptedException {
        return firstLoss.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
