package dev.distlock.core.support;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.StoreFailure;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * How the engine makes a store call for a caller: with the interrupt flag cleared (an interrupted thread must
 * still be able to release its lock in a {@code finally} block; the flag is set again after), a failure reported
 * as a {@link LockBackendException} naming the lock and the operation, and (for releases) a command the store
 * refused without running it sent again.
 */
final class StoreCalls {

    private StoreCalls() {
    }

    /** Runs {@code call} uninterrupted; a failure becomes a {@link LockBackendException} saying what failed. */
    static <T> T call(String name, String operation, Supplier<T> call) {
        try {
            return uninterrupted(call);
        } catch (RuntimeException failure) {
            throw new LockBackendException(name, operation, failure);
        }
    }

    /**
     * Runs {@code call} uninterrupted, sending it again while {@code store} refuses it (it did not run: a slot moving,
     * a failover), after the pauses of {@link #refusedPauseNanos}, until {@code untilNanos}: a refused command's answer
     * comes fast and a retry cannot double it. Other failures, and a refusal that lasts until then, are rethrown as
     * they are. An interrupt that comes during a pause is kept for the caller, as the one before the call.
     *
     * @param untilNanos when the last send may go out ({@link System#nanoTime()})
     */
    static <T> T retriedWhileRefused(LockStore store, EngineRuntime runtime, long untilNanos, Supplier<T> call) {
        boolean interrupted = Thread.interrupted(); // as uninterrupted(call) does, without a second lambda per call
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    return call.get();
                } catch (RuntimeException failure) {
                    long pause = store.classify(failure) == StoreFailure.REFUSED
                            ? refusedPauseNanos(runtime, attempt, untilNanos) : -1;
                    if (pause < 0) {
                        throw failure;
                    }
                    LockSupport.parkNanos(pause);
                    interrupted |= Thread.interrupted();
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The pause before a command the store refused is sent again after its {@code attempt}th send: an acquisition's
     * pause ({@link TransientRetries#pauseNanos}), cut to what is left until {@code untilNanos}; {@code -1} once
     * nothing is left, and the refusal stands.
     */
    static long refusedPauseNanos(EngineRuntime runtime, int attempt, long untilNanos) {
        long left = untilNanos - runtime.nanoTime();
        return left <= 0 ? -1 : Math.min(TransientRetries.pauseNanos(runtime.random(), attempt), left);
    }

    /** The failure a stage completed with, without the {@link CompletionException} that may wrap it. */
    static Throwable unwrapped(Throwable failure) {
        return failure instanceof CompletionException wrapped && wrapped.getCause() != null ? wrapped.getCause()
                : failure;
    }

    /**
     * Whether {@code failure} is an interrupt of the thread that made the call (the client broke its wait for the
     * answer: Lettuce's {@code RedisCommandInterruptedException}, whatever Spring Data wraps it in, or an
     * {@link InterruptedException} in the cause chain), rather than anything the backend or the connection did. The
     * command may have been sent, and may run.
     */
    static boolean brokenByInterrupt(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < 32; depth++, cause = cause.getCause()) {
            if (cause instanceof InterruptedException || cause.getClass().getSimpleName().contains("Interrupted")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Waits for {@code step}, at most {@code maxNanos}, without letting an interrupt end the wait: a blocking caller
     * waiting for a step that is the same whether it waits or not. An interrupt that comes meanwhile is kept: the
     * flag is set on return.
     *
     * @return whether the step completed in time
     */
    static boolean awaitUninterruptibly(EngineRuntime runtime, CompletableFuture<?> step, long maxNanos) {
        boolean interrupted = false;
        long start = runtime.nanoTime();
        try {
            while (!step.isDone()) {
                long left = maxNanos - (runtime.nanoTime() - start);
                if (left <= 0) {
                    return false;
                }
                try {
                    step.get(left, TimeUnit.NANOSECONDS);
                } catch (InterruptedException interrupt) {
                    interrupted = true;
                } catch (ExecutionException | CancellationException | TimeoutException done) {
                    // completed (or the time is up): the loop looks again
                }
            }
            return true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Runs {@code call} with the interrupt flag cleared, then restores it. */
    static <T> T uninterrupted(Supplier<T> call) {
        boolean interrupted = Thread.interrupted();
        try {
            return call.get();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
