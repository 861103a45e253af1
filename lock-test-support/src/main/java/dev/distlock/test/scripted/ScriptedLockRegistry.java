package dev.distlock.test.scripted;

import dev.distlock.core.spi.LockStore;
import dev.distlock.core.support.LockRegistryBuilder;
import dev.distlock.core.support.StoreLockRegistry;

/**
 * The lock engine on any {@link LockStore}, typically a {@link ScriptedLockStore}: one registry stands for one
 * process, so several on one store reproduce a race between processes at a chosen point, deterministically.
 *
 * <pre>{@code
 * ScriptedLockStore store = new ScriptedLockStore();
 * ScriptedLockRegistry first = ScriptedLockRegistry.on(store).build();
 * ScriptedCall release = store.next(Op.RELEASE, "job").loseReply();
 * }</pre>
 */
public final class ScriptedLockRegistry extends StoreLockRegistry {

    private ScriptedLockRegistry(LockStore store, Builder builder) {
        super(store, builder);
    }

    /** A builder of a registry on {@code store}, with the settings every registry has. */
    public static Builder on(LockStore store) {
        return new Builder(store);
    }

    /** How many names this registry keeps state for now (held or waited for): zero once every call has ended. */
    public int trackedNames() {
        return namesInUse();
    }

    /**
     * Whether {@code thread} holds {@code name} through this registry and no loss has been detected (what
     * {@code isHeldByCurrentThread()} tells that thread).
     */
    public boolean holds(String name, Thread thread) {
        return isHeldBy(name, thread);
    }

    /** Builds a {@link ScriptedLockRegistry}. */
    public static final class Builder extends LockRegistryBuilder<Builder> {

        private final LockStore store;

        private Builder(LockStore store) {
            this.store = store;
        }

        /** The registry. */
        public ScriptedLockRegistry build() {
            return new ScriptedLockRegistry(store, this);
        }
    }
}
