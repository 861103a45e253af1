package dev.distlock.memory;

import dev.distlock.core.spi.LockStore;
import dev.distlock.test.contract.LockStoreContract;

/** The store protocol in memory: the same answers as the Redis scripts (see {@code RedisLockStoreContractIT}). */
class InMemoryLockStoreContractTest extends LockStoreContract {

    private InMemoryLockStore store;

    @Override
    protected LockStore newStore() {
        store = new InMemoryLockStore();
        return store;
    }

    @Override
    protected void holdWithoutExpiry(String name, String token) {
        store.overwrite(name, token);
    }

    @Override
    protected void endFenceRetention(String name) {
        store.delete(name);
    }
}
