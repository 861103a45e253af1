package dev.distlock.core.support;

import dev.distlock.core.LockEvent;
import dev.distlock.core.LockListener;
import java.util.List;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls every registered {@link LockListener}, keeping a failing listener from breaking the lock. */
final class Listeners {

    private static final Logger log = LoggerFactory.getLogger(Listeners.class);

    private final List<LockListener> listeners;

    Listeners(List<LockListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    void acquired(LockEvent event) {
        each(LockListener::onAcquired, event);
    }

    void acquireFailed(LockEvent event) {
        each(LockListener::onAcquireFailed, event);
    }

    void released(LockEvent event) {
        each(LockListener::onReleased, event);
    }

    void lost(LockEvent event) {
        log.warn("Lock '{}' (fencing token {}) was lost after {}: its lease expired or another owner took it",
                event.lockName(), event.fencingToken(), event.elapsed());
        each(LockListener::onLost, event);
    }

    void renewalFailed(LockEvent event) {
        log.warn("Renewing the lease of lock '{}' failed; retrying at the next period", event.lockName(),
                event.error());
        each(LockListener::onRenewalFailed, event);
    }

    void releaseFailed(LockEvent event) {
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
