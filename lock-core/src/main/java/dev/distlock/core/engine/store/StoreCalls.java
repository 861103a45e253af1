package dev.distlock.core.engine.store;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.engine.runtime.EngineRuntime;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * How the engine makes a store call for a caller: with the interrupt flag cleared (an interrupted thread must
 * still be able to release its lock in a {@code finally} block; the flag is set again after), a failure reported
 * as a {@link LockBackendException} naming the lock and the operation, and (for releases) a command the store
 * refused without running it sent again.
 */
public final class StoreCalls {

    private StoreCalls() {
    }

    /** Runs {@code call} uninterrupted; a failure becomes a {@link LockBackendException} saying what failed. */
    public static <T> T call(String name, String operation, Supplier<T> call) {
        try {
            return uninterrupted(call);
        } catch (RuntimeException failure) {
            throw new LockBackendException(name, operation, failure);
        }
    }

    /**
     * The pause before a command the store refused is sent again after its {@code attempt}th send: an acquisition's
     * pause ({@link TransientRetries#pauseNanos}), cut to what is left until {@code untilNanos}; {@code -1} once
     * nothing is left, and the refusal stands.
     */
    public static long refusedPauseNanos(EngineRuntime runtime, int attempt, long untilNanos) {
        long left = untilNanos - runtime.nanoTime();
        return left <= 0 ? -1 : Math.min(TransientRetries.pauseNanos(runtime.random(), attempt), left);
    }

    /** The failure a stage completed with, without the {@link CompletionException} that may wrap it. */
    public static Throwable unwrapped(Throwable failure) {
        return failure instanceof CompletionException wrapped && wrapped.getCause() != null ? wrapped.getCause()
                : failure;
    }

    /**
     * Whether {@code failure} is an interrupt of the thread that made the call (the client broke its wait for the
     * answer: Lettuce's {@code RedisCommandInterruptedException}, whatever Spring Data wraps it in, or an
     * {@link InterruptedException} in the cause chain), rather than anything the backend or the connection did. The
     * command may have been sent, and may run.
     */
    public static boolean brokenByInterrupt(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < 32; depth++, cause = cause.getCause()) {
            if (cause instanceof InterruptedException || cause.getClass().getSimpleName().contains("Interrupted")) {
                return true;
            }
        }
        return false;
    }

    /** Runs {@code call} with the interrupt flag cleared, then restores it. */
    public static <T> T uninterrupted(Supplier<T> call) {
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
