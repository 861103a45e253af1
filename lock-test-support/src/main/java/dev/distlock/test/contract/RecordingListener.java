package dev.distlock.test.contract;

import dev.distlock.core.LockEvent;
import dev.distlock.core.LockListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A {@link LockListener} that records every event, for assertions. */
public final class RecordingListener implements LockListener {

    /** One recorded call: its type ({@code "acquired"}, {@code "lost"}, ...) and event. */
    public record Recorded(String type, LockEvent event) {
    }

    private final List<Recorded> events = new CopyOnWriteArrayList<>();
    private final CountDownLatch firstLoss = new CountDownLatch(1);

    @Override
    public void onAcquired(LockEvent event) {
        events.add(new Recorded("acquired", event));
    }

    @Override
    public void onAcquireFailed(LockEvent event) {
        events.add(new Recorded("acquireFailed", event));
    }

    @Override
    public void onReleased(LockEvent event) {
        events.add(new Recorded("released", event));
    }

    @Override
    public void onLost(LockEvent event) {
        events.add(new Recorded("lost", event));
        firstLoss.countDown();
    }

    @Override
    public void onRenewalFailed(LockEvent event) {
        events.add(new Recorded("renewalFailed", event));
    }

    @Override
    public void onReleaseFailed(LockEvent event) {
        events.add(new Recorded("releaseFailed", event));
    }

    /** Every event so far, in order. */
    public List<Recorded> recorded() {
        return List.copyOf(events);
    }

    /** The events of one type, in order. */
    public List<LockEvent> events(String type) {
        return events.stream().filter(recorded -> recorded.type().equals(type)).map(Recorded::event).toList();
    }

    /** Waits at most {@code timeout} for the first loss; returns whether one was reported. */
    public boolean awaitLoss(Duration timeout) throws InterruptedException {
        return firstLoss.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
