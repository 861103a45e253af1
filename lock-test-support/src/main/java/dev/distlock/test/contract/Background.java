package dev.distlock.test.contract;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Work running in a thread of its own (never a shared pool's, since tests interrupt it), with its outcome awaited
 * for a bounded time.
 *
 * @param <T> what the work returns
 */
public final class Background<T> {

    /** How long {@link #get()} waits at most: 30 seconds. */
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final CompletableFuture<T> outcome = new CompletableFuture<>();
    private final Thread thread;

    /** Starts {@code work} on a new thread named {@code name}. */
    public Background(String name, Callable<T> work) {
        thread = new Thread(() -> {
            try {
                outcome.complete(work.call());
            } catch (Throwable failure) {
                outcome.completeExceptionally(failure);
            }
        }, name);
        thread.start();
    }

    /** Starts {@code work} on a new thread. */
    public Background(Callable<T> work) {
        this("contract-background", work);
    }

    /** The thread the work runs on (to interrupt it, or to see what it called). */
    public Thread thread() {
        return thread;
    }

    /** Interrupts the thread once it is blocked (waiting for the lock or for the backend), within ten seconds. */
    public void interruptWhenBlocked() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
            if (System.nanoTime() > deadline || outcome.isDone()) {
                throw new AssertionError("the background work never blocked; state " + thread.getState());
            }
            Thread.onSpinWait();
        }
        thread.interrupt();
    }

    public boolean isDone() {
        return outcome.isDone();
    }

    /** The result, or what the work threw; waits at most 30 seconds. */
    public T get() throws Exception {
        try {
            return outcome.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException ex) {
            if (ex.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw ex;
        }
    }
}
