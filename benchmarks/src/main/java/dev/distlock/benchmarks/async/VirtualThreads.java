package dev.distlock.benchmarks.async;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Optional;

/**
 * Virtual threads where the running Java has them (21 and later), reached by a method handle: the build targets
 * Java 17, which has neither {@code Thread.ofVirtual()} nor {@code Thread.Builder}.
 */
final class VirtualThreads {

    private VirtualThreads() {
    }

    /** Starts virtual threads; empty before Java 21. */
    interface Builder {
        void start(Runnable task);
    }

    static Optional<Builder> builder() {
        try {
            Object ofVirtual = MethodHandles.publicLookup().findStatic(Thread.class, "ofVirtual",
                    MethodType.methodType(Class.forName("java.lang.Thread$Builder$OfVirtual"))).invoke();
            var start = MethodHandles.publicLookup().findVirtual(Class.forName("java.lang.Thread$Builder"), "start",
                    MethodType.methodType(Thread.class, Runnable.class)).bindTo(ofVirtual);
            return Optional.of(task -> {
                try {
                    start.invoke(task);
                } catch (Throwable failure) {
                    throw new IllegalStateException("could not start a virtual thread", failure);
                }
            });
        } catch (Throwable notThere) {
            return Optional.empty();
        }
    }
}
