package dev.distlock.core.support;

/** A registry on a {@link ScriptedLockStore}, standing for one process. */
final class ScriptedRegistry extends StoreLockRegistry {

    private ScriptedRegistry(LockStore store, Builder builder) {
        super(store, builder);
    }

    static Builder on(ScriptedLockStore store) {
        return new Builder(store);
    }

    static final class Builder extends StoreLockRegistry.Builder<Builder> {

        private final ScriptedLockStore store;

        private Builder(ScriptedLockStore store) {
            this.store = store;
        }

        ScriptedRegistry build() {
            return new ScriptedRegistry(store, this);
        }
    }
}
