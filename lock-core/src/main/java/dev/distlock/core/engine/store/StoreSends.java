package dev.distlock.core.engine.store;

import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.spi.AsyncLockStore;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * How one caller's store commands go out and where their answers are dealt with, so that each hold operation is
 * written once: a non-blocking caller's go out on the registry's asynchronous store and are answered on a step
 * executor (never the client's own thread); a blocking caller's are made on its own thread, each stage complete on
 * return and its answer dealt with right there, so that the operation's stage is complete when it returns and the
 * caller only reads it ({@link #await}).
 *
 * @param store the store's operations as this caller sends them
 * @param answers where what follows an answer runs
 */
public record StoreSends(AsyncLockStore store, Executor answers) {

    /** Answers dealt with where they arrive: a blocking caller's, on its own thread. */
    private static final Executor INLINE = Runnable::run;

    /** A blocking caller's: on its own thread. */
    public static StoreSends blocking(AsyncLockStore callingThread) {
        return new StoreSends(callingThread, INLINE);
    }

    /** A non-blocking caller's: answers dealt with on the registry's step executors. */
    public static StoreSends nonBlocking(AsyncLockStore sends, EngineRuntime runtime) {
        return new StoreSends(sends, runtime::afterAnswer);
    }

    /** Runs {@code then} with the answer to {@code sent}, or its failure (unwrapped), where answers are dealt with. */
    public <T> void whenAnswered(CompletionStage<T> sent, BiConsumer<T, Throwable> then) {
        if (answers == INLINE && sent instanceof CompletableFuture<T> answered && answered.isDone()) {
            answeredNow(answered, then); // a blocking caller's answer, there already: no stage to chain
            return;
        }
        sent.whenComplete((value, failure) -> answers.execute(() -> then.accept(value, StoreCalls.unwrapped(failure))));
    }

    private static <T> void answeredNow(CompletableFuture<T> answered, BiConsumer<T, Throwable> then) {
        T value;
        try {
            value = answered.join();
        } catch (CompletionException | CancellationException failure) {
            then.accept(null, StoreCalls.unwrapped(failure));
            return;
        }
        then.accept(value, null);
    }

    /**
     * Runs an {@code operation} made with the {@linkplain #blocking blocking} sends and returns its outcome (complete
     * when it returns), its failure thrown as the operation made it. The operation runs with the interrupt flag
     * cleared (set again after): an interrupted thread can still extend, read or verify its lock.
     */
    public static <T> T await(Supplier<CompletionStage<T>> operation) {
        try {
            return StoreCalls.uninterrupted(() -> operation.get().toCompletableFuture().join());
        } catch (CompletionException failed) {
            if (failed.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw failed;
        }
    }
}
