package dev.distlock.redis;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/** A blocking caller's wait for a call sent on Lettuce's asynchronous API ({@link RedisAsyncLockStore}). */
final class NativeCalls {

    private NativeCalls() {
    }

    /**
     * The call's reply, or its failure as thrown by the client (what Redis said, a timeout, a lost connection). The
     * wait ignores interrupts, as the engine's blocking store calls do: the command is sent, and only its reply
     * tells what it did.
     */
    static <T> T awaited(CompletionStage<T> call) {
        try {
            return call.toCompletableFuture().join();
        } catch (CompletionException | CancellationException wrapped) {
            Throwable failure = wrapped instanceof CompletionException && wrapped.getCause() != null
                    ? wrapped.getCause() : wrapped;
            if (failure instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (failure instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(failure.getMessage(), failure);
        }
    }
}
