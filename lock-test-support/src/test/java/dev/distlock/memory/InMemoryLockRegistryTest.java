package dev.distlock.memory;

import dev.distlock.core.LockListener;
import dev.distlock.core.LockRegistry;
import dev.distlock.test.contract.QueuedLockRegistryContract;
import java.time.Duration;

/** The lock contract on the in-memory store, with several registries on one store as processes. */
class InMemoryLockRegistryTest extends QueuedLockRegistryContract {

    private final InMemoryLockStore store = new InMemoryLockStore();

    @Override
    protected LockRegistry newRegistry(LockListener listener, Duration maxPollInterval) {
        return InMemoryLockRegistry.builder().store(store).listener(listener).maxPollInterval(maxPollInterval).build();
    }

    @Override
    protected void deleteFromOutside(LockRegistry registry, String name) {
        store.delete(name);
    }

    @Override
    protected long waitersQueued(LockRegistry registry, String name) {
        return store.waitersQueued(name);
    }

    @Override
    protected void overwriteFromOutside(LockRegistry registry, String name, String value) {
        store.overwrite(name, value);
    }
}
