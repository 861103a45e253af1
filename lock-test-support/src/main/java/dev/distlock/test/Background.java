package dev.distlock.test;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** Runs a task on a new daemon thread (not the common pool, which has one thread on a 2-core machine). */
final class Background {

    private Background() {
    }

    static <T> CompletableFuture<T> supply(String threadName, Supplier<T> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                result.complete(task.get());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, threadName);
        thread.setDaemon(true);
        thread.start();
        return result;
    }
}
