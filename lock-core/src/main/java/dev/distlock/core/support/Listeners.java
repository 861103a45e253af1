package dev.distlock.core.support;

import dev.distlock.core.LockListener;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls every registered {@link LockListener}, keeping a failing listener from breaking the lock. */
final class Listeners implements LockListener {

    private static final Logger log = LoggerFactory.getLogger(Listeners.class);

    private final List<LockListener> listeners;

    Listeners(List<LockListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public void onAcquired(String lockName, long fencingToken, Duration waited) {
        each(l -> l.onAcquired(lockName, fencingToken, waited));
    }

    @Override
    public void onAcquireFailed(String lockName, Duration waited, Throwable error) {
        each(l -> l.onAcquireFailed(lockName, waited, error));
    }

    @Override
    public void onReleased(String lockName, long fencingToken, Duration held) {
        each(l -> l.onReleased(lockName, fencingToken, held));
    }

    @Override
    public void onLost(String lockName, long fencingToken, Duration held) {
        log.warn("Lock '{}' (fencing token {}) was lost after {}: its lease expired or another owner took it",
                lockName, fencingToken, held);
        each(l -> l.onLost(lockName, fencingToken, held));
    }

    @Override
    public void onRenewalFailed(String lockName, Throwable error) {
        log.warn("Renewing the lease of lock '{}' failed; retrying at the next period", lockName, error);
        each(l -> l.onRenewalFailed(lockName, error));
    }

    @Override
    public void onReleaseFailed(String lockName, Throwable error) {
        each(l -> l.onReleaseFailed(lockName, error));
    }

    private void each(Consumer<LockListener> call) {
        for (LockListener listener : listeners) {
            try {
                call.accept(listener);
            } catch (RuntimeException ex) {
                log.warn("Lock listener {} failed", listener, ex);
            }
        }
    }
}
