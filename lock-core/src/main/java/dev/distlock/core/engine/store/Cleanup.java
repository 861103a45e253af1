package dev.distlock.core.engine.store;

import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.spi.AsyncLockStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure a token that may hold something in the backend ends up holding nothing, without making the
 * caller wait: after a try failed, timed out or was interrupted (its command may have run even though no
 * reply came), after an interrupt raced with a successful try, after a failed release, and when a hold was
 * found lost by its deadline. An owner-checked {@link dev.distlock.core.spi.LockStore#abandon} is sent in the
 * background until the backend answers or a lease has passed (by then whatever the token held has expired
 * anyway). When the outcome of a try is unknown, its command may still be on its way on another connection (a
 * pooled client), so one more clean-up follows a second after the first answer.
 */
public final class Cleanup {

    private static final Logger log = LoggerFactory.getLogger(Cleanup.class);

    private static final long FIRST_RETRY_MILLIS = 50;
    private static final long MAX_RETRY_MILLIS = 1000;
    private static final long TRAILING_MILLIS = 1000;

    private final AsyncLockStore sends;
    private final EngineRuntime runtime;

    public Cleanup(AsyncLockStore sends, EngineRuntime runtime) {
        this.sends = sends;
        this.runtime = runtime;
    }

    /**
     * Abandons {@code token} of lock {@code name} in the background.
     *
     * @param leaseMillis the lease the token's try asked for: after that long nothing it took is left
     * @param outcomeUnknown whether a command of the token may still reach the backend after this
     * @return completes once the first abandon was answered, or could not be sent (the registry closed)
     */
    public CompletionStage<Void> abandon(String name, String token, long leaseMillis, boolean outcomeUnknown) {
        long giveUpAt = runtime.nanoTime() + TimeUnit.MILLISECONDS.toNanos(leaseMillis);
        Task task = new Task(name, token, giveUpAt, outcomeUnknown);
        run(task, 0);
        return task.firstAnswer;
    }

    private void run(Task task, long delayMillis) {
        try {
            if (delayMillis == 0) {
                task.run();
            } else {
                runtime.schedule(task, TimeUnit.MILLISECONDS.toNanos(delayMillis));
            }
        } catch (RejectedExecutionException closed) {
            task.firstAnswer.complete(null);
            log.debug("Registry closed: lock '{}' token {} is left to expire with its lease", task.name, task.token);
        }
    }

    private final class Task implements Runnable {

        final String name;
        final String token;
        final long giveUpAt;
        final CompletableFuture<Void> firstAnswer = new CompletableFuture<>();
        boolean trailing;
        long retryMillis = FIRST_RETRY_MILLIS;

        Task(String name, String token, long giveUpAt, boolean trailing) {
            this.name = name;
            this.token = token;
            this.giveUpAt = giveUpAt;
            this.trailing = trailing;
        }

        /** Sends the abandon (without waiting); its answer decides whether and when it is sent again. */
        @Override
        public void run() {
            sends.abandon(name, token).whenComplete((done, failure) -> {
                firstAnswer.complete(null);
                if (failure != null) {
                    if (runtime.nanoTime() - giveUpAt < 0) {
                        long delay = retryMillis;
                        retryMillis = Math.min(MAX_RETRY_MILLIS, retryMillis * 2);
                        log.debug("Cleaning up lock '{}' failed, retrying in {}ms", name, delay, failure);
                        Cleanup.this.run(this, delay);
                    }
                } else if (trailing) {
                    trailing = false;
                    Cleanup.this.run(this, TRAILING_MILLIS);
                }
            });
        }
    }
}
