package dev.distlock.shedlock;

import dev.distlock.core.LockRegistry;
import dev.distlock.memory.InMemoryLockRegistry;
import dev.distlock.memory.InMemoryLockStore;

/** ShedLock's provider contract on distlock in memory: registries over one store stand for application instances. */
class DistlockLockProviderTest extends ShedLockProviderContract {

    private final InMemoryLockStore store = new InMemoryLockStore();

    @Override
    protected LockRegistry newRegistry() {
        InMemoryLockRegistry registry = InMemoryLockRegistry.builder().store(store).build();
        closeAfterEach.push(registry);
        return registry;
    }
}
