package dev.distlock.redis;

import io.lettuce.core.RedisCommandInterruptedException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

/** A blocking caller's wait for a call sent on Lettuce's asynchronous API ({@link RedisAsyncLockStore}). */
final class NativeCalls {

    private NativeCalls() {
    }

    /**
     * The call's reply, or its failure as the client reported it (what Redis said, a timeout, a lost connection).
     * An interrupt ends the wait as it does on Lettuce's synchronous API: the call is cancelled (a call still
     * waiting for a connection is then never sent; one already sent may still run) and the interrupt is kept.
     * That is how Redlock stops the calls to nodes that answered too late; the engine's own blocking calls are
     * made with the interrupt cleared.
     */
    static <T> T awaited(CompletionStage<T> call) {
        CompletableFuture<T> future = call.toCompletableFuture();
        try {
            return future.get();
        } catch (InterruptedException interrupt) {
            future.cancel(false);
            Thread.currentThread().interrupt();
            throw new RedisCommandInterruptedException(interrupt);
        } catch (ExecutionException failed) {
            Throwable failure = failed.getCause() != null ? failed.getCause() : failed;
            if (failure instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (failure instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(failure.getMessage(), failure);
        } catch (CancellationException cancelled) {
            throw cancelled;
        }
    }
}
