package dev.distlock.core.engine.runtime;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockEvent;
import dev.distlock.core.LockListener;
import java.util.List;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls every registered {@link LockListener}, keeping a failing listener from breaking the lock. */
public final class Listeners {

    private static final Logger log = LoggerFactory.getLogger(Listeners.class);

    private final List<LockListener> listeners;

    public Listeners(List<LockListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    /** Whether any listener is registered: without one, no event is made. */
    public boolean any() {
        return !listeners.isEmpty();
    }

    public void acquired(LockEvent event) {
        each(LockListener::onAcquired, event);
    }

    public void acquireFailed(LockEvent event) {
        each(LockListener::onAcquireFailed, event);
    }

    public void released(LockEvent event) {
        each(LockListener::onReleased, event);
    }

    /** A loss; the event's error is the {@link dev.distlock.core.LockLostException} that says why. */
    public void lost(LockEvent event) {
        log.warn("Lock '{}' (fencing token {}) was lost after {}: {}", event.lockName(), event.fencingToken(),
                event.elapsed(), event.error() != null ? event.error().getMessage() : "");
        each(LockListener::onLost, event);
    }

    /** A failed renewal; logged at WARN when it is the first of a streak, so a long outage logs once per hold. */
    public void renewalFailed(LockEvent event, boolean firstOfStreak) {
        if (firstOfStreak) {
            log.warn("Renewing the lease of lock '{}' failed, retrying soon: {}", event.lockName(),
                    LockBackendException.innermostMessage(event.error()));
        } else {
            log.debug("Renewing the lease of lock '{}' failed again", event.lockName(), event.error());
        }
        each(LockListener::onRenewalFailed, event);
    }

    /** An acquisition that keeps meeting transient errors; logged at WARN (once per call, as it is told once). */
    public void acquireRetrying(LockEvent event) {
        log.warn("Acquiring lock '{}' has met only transient backend errors for {}, still trying within its wait: "
                + "{}", event.lockName(), event.elapsed(), LockBackendException.innermostMessage(event.error()));
        each(LockListener::onAcquireRetrying, event);
    }

    public void releaseFailed(LockEvent event) {
        each(LockListener::onReleaseFailed, event);
    }

    private void each(BiConsumer<LockListener, LockEvent> call, LockEvent event) {
        for (LockListener listener : listeners) {
            try {
                call.accept(listener, event);
            } catch (RuntimeException ex) {
                log.warn("Lock listener {} failed", listener, ex);
            }
        }
    }
}
