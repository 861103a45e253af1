package dev.distlock.core.support;

import java.util.concurrent.Semaphore;

/**
 * What one registry knows about one name while the name is held or waited for; dropped when idle so
 * memory does not grow with the number of names ever used.
 */
final class NameState {

    /**
     * Local queue: a thread owns the permit from before it asks the store until it releases there, so
     * threads of this registry never race each other in the backend and wait in arrival order.
     */
    final Semaphore gate = new Semaphore(1, true);

    /** The hold of this registry, if it holds the lock now. */
    volatile Hold hold;

    /** Callers using this state (waiting or holding); guarded by the registry's map. */
    int users;
}
