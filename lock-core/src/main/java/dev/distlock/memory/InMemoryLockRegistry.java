package dev.distlock.memory;

import dev.distlock.core.support.LockRegistryBuilder;
import dev.distlock.core.support.StoreLockRegistry;
import java.util.Objects;

/**
 * Locks in this JVM only, with exactly the semantics of the Redis registry (the same engine runs both):
 * leases, renewal, loss, fencing tokens, re-entrancy. Meant for tests of code that uses a
 * {@link dev.distlock.core.LockRegistry}; it never excludes other processes, so it is never chosen in
 * place of Redis without being asked for.
 *
 * <pre>{@code
 * InMemoryLockStore store = new InMemoryLockStore(clock, Duration.ofHours(1));
 * InMemoryLockRegistry a = InMemoryLockRegistry.builder().store(store).build();
 * InMemoryLockRegistry b = InMemoryLockRegistry.builder().store(store).build(); // "another process"
 * }</pre>
 */
public final class InMemoryLockRegistry extends StoreLockRegistry {

    private final InMemoryLockStore store;

    private InMemoryLockRegistry(Builder builder, InMemoryLockStore store) {
        super(store, builder);
        this.store = store;
    }

    /** Starts a registry on a new private store unless {@link Builder#store} names a shared one. */
    public static Builder builder() {
        return new Builder();
    }

    /** The store this registry locks in. */
    public InMemoryLockStore store() {
        return store;
    }

    /** Builds an {@link InMemoryLockRegistry}. */
    public static final class Builder extends LockRegistryBuilder<Builder> {

        private InMemoryLockStore store;

        private Builder() {
        }

        /** The store to lock in; registries on one store exclude each other. Default: a new store. */
        public Builder store(InMemoryLockStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /** Creates the registry. */
        public InMemoryLockRegistry build() {
            return new InMemoryLockRegistry(this, store != null ? store : new InMemoryLockStore());
        }
    }
}
