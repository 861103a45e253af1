package dev.distlock.memory;

import dev.distlock.core.support.LockStore;
import dev.distlock.test.contract.LockStoreContract;

/** The store protocol in memory: the same answers as the Redis scripts (see {@code RedisLockStoreContractIT}). */
class InMemoryLockStoreContractTest extends LockStoreContract {

    @Override
    protected LockStore newStore() {
        return new InMemoryLockStore();
    }
}
