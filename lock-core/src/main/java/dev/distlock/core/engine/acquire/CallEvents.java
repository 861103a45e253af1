package dev.distlock.core.engine.acquire;

import dev.distlock.core.LockEvent;
import dev.distlock.core.engine.LockRequest;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.runtime.Listeners;
import dev.distlock.core.engine.runtime.WaitTimers;
import dev.distlock.core.engine.store.TransientRetries;

/**
 * What the listeners hear of one acquire call, whichever thread ends it; nothing is made when no listener is
 * registered.
 */
public final class CallEvents implements TransientRetries.Reporter {

    private final Listeners listeners;
    private final LockRequest request;
    private final WaitTimers time;

    CallEvents(Listeners listeners, LockRequest request, WaitTimers time) {
        this.listeners = listeners;
        this.request = request;
        this.time = time;
    }

    /** Transient failures have lasted a while: the listeners hear of it once, while the call goes on waiting. */
    @Override
    public void persistent(RuntimeException lastFailure) {
        listeners.acquireRetrying(event(lastFailure));
    }

    /**
     * The call ended with {@code hold} (or none, and {@code error} if it failed): {@code settle} makes the outcome
     * count (a hold starts and is announced to the listeners there), then a call without the lock is told.
     */
    void ended(Runnable settle, Hold hold, Throwable error) {
        if (!listeners.any()) {
            settle.run();
            return;
        }
        settle.run();
        if (hold == null) {
            listeners.acquireFailed(event(error));
        }
    }

    private LockEvent event(Throwable error) {
        return new LockEvent(request.name(), request.label(), 0, time.waited(), error, null, request.kind());
    }
}
