package dev.distlock.memory;

import dev.distlock.core.spi.Grant;
import dev.distlock.core.spi.HandOffNotices.Subscription;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The waiters' grant listeners, apart from the store's monitor: listeners are called back with foreign code, so
 * hand-offs are collected as {@link Notice}s under the store's lock and delivered only after it is let go. The
 * listener map is concurrent because subscribing and delivering both happen outside that lock.
 */
final class GrantNotices {

    private final Map<String, Consumer<Grant>> grantListeners = new ConcurrentHashMap<>();

    /** Calls {@code onGrant} on hand-offs to {@code token} until the subscription is closed. */
    Subscription await(String token, Consumer<Grant> onGrant) {
        grantListeners.put(token, onGrant);
        return () -> grantListeners.remove(token, onGrant);
    }

    /** Tells each notice's listener, if any; call without holding the store's lock. */
    void deliver(List<Notice> notices) {
        for (Notice notice : notices) {
            Consumer<Grant> listener = grantListeners.get(notice.token());
            if (listener != null) {
                listener.accept(notice.grant());
            }
        }
    }

    /** A hand-off decided under the store's lock, waiting to be told once the lock is let go. */
    record Notice(String token, Grant grant) {
    }
}
