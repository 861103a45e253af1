package dev.distlock.core.spi;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A store's notices that a release handed a lock to one of this process's waiters: a capability a
 * {@link LockStore} may offer ({@link StoreCapabilities#handOffs()}). Notices may be lost or late; waiters also ask
 * the store again now and then, so a store without them still works: its waiters poll.
 */
public interface HandOffNotices {

    /**
     * Starts hearing hand-offs to this process's waiters, if not yet; the future completes when they are heard.
     * Never blocks the caller. By default there is nothing to start.
     */
    default CompletableFuture<Void> listen() {
        return CompletableFuture.completedFuture(null);
    }

    /** Whether hand-offs are heard now; always, by default. */
    default boolean listening() {
        return true;
    }

    /**
     * Calls {@code onGrant} (on any thread; it must return quickly) when a release hands {@code name} to
     * {@code token}, until the returned subscription is closed.
     */
    Subscription await(String name, String token, Consumer<Grant> onGrant);

    /**
     * Whether a notice alone makes the waiter the owner; if not (the store must confirm holds, e.g. with replicas),
     * the waiter asks the store, which confirms the hold, before it counts. True by default.
     */
    default boolean trusted() {
        return true;
    }

    /** An active hand-off notification. */
    interface Subscription extends AutoCloseable {

        /** Stops the notifications. */
        @Override
        void close();
    }
}
