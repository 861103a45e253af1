package dev.distlock.autoconfigure;

import dev.distlock.core.support.StoreLockRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

/**
 * Closes the application's lock registry when the context stops, in phase
 * {@link DistlockAutoConfiguration#REGISTRY_PHASE}: after web servers and executors finished their work (no critical
 * section runs any more), before the pub/sub container and the Redis connection factory stop. Closing gives every
 * hold still held back to Redis, so that another instance proceeds at once rather than a lease later; done at bean
 * destruction instead, it would find the connection factory stopped. Bounded by the registry's close (at most five
 * seconds).
 */
final class RegistryShutdown implements SmartLifecycle {

    private final ObjectProvider<StoreLockRegistry> registry;
    private volatile boolean running;

    RegistryShutdown(ObjectProvider<StoreLockRegistry> registry) {
        this.registry = registry;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        StoreLockRegistry closing = registry.getIfUnique();
        if (closing != null) {
            closing.close();
        }
        running = false;
    }

    @Override
    public void stop(Runnable callback) {
        StoreLockRegistry closing = registry.getIfUnique();
        if (closing == null) {
            running = false;
            callback.run();
            return;
        }
        closing.closeAsync().whenComplete((closed, failure) -> {
            running = false;
            callback.run();
        });
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return DistlockAutoConfiguration.REGISTRY_PHASE;
    }
}
