package dev.distlock.benchmarks.redis;

import dev.distlock.benchmarks.contenders.RedisAddress;
import dev.distlock.core.FencedLock;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.RespClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The commands of each path of distlock's protocol, in the order Redis ran them ({@link CommandMonitor}): one
 * process locking alone, then two processes (registries on connections of their own) meeting on one name. Redis
 * shows what it ran; the order of two processes' commands is one that happened.
 */
public final class CommandPaths {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final RedisAddress redis;
    private final RespClient control;
    private final List<CommandPath> paths = new ArrayList<>();

    /** One path: what it is, and its commands ({@link CommandMonitor#sequence}). */
    public record CommandPath(String path, List<String> commands) {
    }

    /**
     * @param control a connection of the harness's own, for the marker commands and for watching the queue
     */
    public CommandPaths(RedisAddress redis, RespClient control) {
        this.redis = redis;
        this.control = control;
    }

    /** Runs every path once on fresh names and returns them in that order. */
    public List<CommandPath> capture() throws Exception {
        LettuceConnectionFactory first = redis.newConnectionFactory();
        LettuceConnectionFactory second = redis.newConnectionFactory();
        try (RedisLockRegistry one = RedisLockRegistry.builder(first).keyPrefix("paths").build();
                RedisLockRegistry other = RedisLockRegistry.builder(second).keyPrefix("paths")
                        .maxPollInterval(Duration.ofMillis(100)).build()) {
            FencedLock warm = one.obtain("warm-up");
            warm.lock();
            warm.unlock();
            other.obtain("warm-up").lock();
            other.obtain("warm-up").unlock();
            alone(one.obtain("alone"));
            local(one);
            contended(one.obtain("shared"), other.obtain("shared"));
            return List.copyOf(paths);
        } finally {
            first.destroy();
            second.destroy();
        }
    }

    private void alone(FencedLock lock) throws Exception {
        watch("lock, a name never locked (or its last token gone)", lock::lock);
        watch("unlock, nobody waiting: freed, keeping its last token", lock::unlock);
        watch("lock, a name freed before", lock::lock);
        watch("extend", () -> lock.extend(Duration.ofSeconds(60)));
        watch("unlock", lock::unlock);
    }

    /** Two threads of one registry on one name: the release carries the waiting thread's try. */
    private void local(RedisLockRegistry registry) throws Exception {
        FencedLock holder = registry.obtain("local");
        holder.lock();
        CompletableFuture<Boolean> acquired = new CompletableFuture<>();
        CountDownLatch release = new CountDownLatch(1);
        Thread waiting = new Thread(() -> {
            FencedLock next = registry.obtain("local");
            try {
                next.lock();
                acquired.complete(true);
                release.await();
                next.unlock();
            } catch (Exception failure) {
                acquired.completeExceptionally(failure);
            }
        }, "bench-paths-local");
        waiting.start();
        awaitUntil(() -> waiting.getState() == Thread.State.WAITING); // at the name's gate, behind the holder
        watch("unlock that hands over to a waiting thread of the same registry (its try goes with the release)",
                () -> {
                    holder.unlock();
                    acquired.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
                });
        release.countDown();
        waiting.join(PATIENCE.toMillis());
    }

    private void contended(FencedLock holder, FencedLock waiter) throws Exception {
        holder.lock();
        String queue = "paths:{shared}:queue";
        CompletableFuture<Boolean> acquired = new CompletableFuture<>();
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> released = new CompletableFuture<>();
        Thread waiting = new Thread(() -> {
            try {
                acquired.complete(waiter.tryLock(PATIENCE));
                release.await();
                waiter.unlock();
                released.complete(null);
            } catch (Exception failure) {
                acquired.completeExceptionally(failure);
                released.completeExceptionally(failure);
            }
        }, "bench-paths-waiter");
        watch("a waiter's first try: busy, queued (its process subscribes its channel)", () -> {
            waiting.start();
            awaitUntil(() -> Long.valueOf(1).equals(control.command("LLEN", queue)));
        });
        watch("a waiter's poll while the lock is busy (every max-poll-interval, 100 ms here)",
                () -> TimeUnit.MILLISECONDS.sleep(150));
        watch("unlock that hands over to the waiter (who starts on the notice, without a round trip)", () -> {
            holder.unlock();
            if (!acquired.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the waiter did not get the lock");
            }
        });
        watch("the new holder's unlock", () -> {
            release.countDown();
            released.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        });
    }

    private void watch(String path, Step step) throws Exception {
        String marker = "bench-path-" + paths.size() + "-" + System.nanoTime();
        try (CommandMonitor monitor = CommandMonitor.start(redis.host(), redis.port(), marker)) {
            control.command("ECHO", marker + "-start");
            step.run();
            control.command("ECHO", marker + "-end");
            if (!monitor.awaitEnd(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("MONITOR did not show the end marker within 30 s");
            }
            // the harness's own commands (markers aside, LLEN watching the queue) are not the path's, nor the
            // registry's reading of the replicas online (INFO, once a second in the background)
            paths.add(new CommandPath(path, monitor.sequence().stream()
                    .filter(command -> !command.equals("LLEN") && !command.equals("INFO")).toList()));
        }
    }

    private static void awaitUntil(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not reached within " + PATIENCE);
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }

    /** One path's actions. */
    private interface Step {
        void run() throws Exception;
    }
}
