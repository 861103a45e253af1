package dev.distlock.benchmarks.renewals;

import dev.distlock.benchmarks.redis.RedisCounters;
import dev.distlock.benchmarks.redis.RedisStats;
import dev.distlock.core.DetachedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Many renewed holds at once, and what their watchdog renewals cost Redis: holds with the same lease renew on a
 * shared grid of moments, and the renewals due together go out as one script call of up to 500 holds, so 10,000
 * holds should cost a few dozen scripts per renewal period rather than 10,000. The holds are taken with
 * {@code lockAsync()} on distinct names, then left alone while {@code INFO commandstats} is read a renewal period
 * apart from the acquisitions and again some periods later.
 */
public final class RenewalCheck {

    /** The top-level script commands; what the scripts run inside is counted by Redis under its own names. */
    static final List<String> SCRIPT_COMMANDS = List.of("fcall", "evalsha", "eval");
    private static final long WAIT_SECONDS = 60;

    private final RedisStats stats;

    /** @param stats the counters of the Redis server the registry renews on */
    public RenewalCheck(RedisStats stats) {
        this.stats = stats;
    }

    /**
     * Takes {@code holds} holds on {@code registry} with a renewed {@code lease}, measures {@code periods} renewal
     * periods (a third of the lease each) and releases them.
     *
     * @throws IllegalStateException if not every hold was granted, or released, within a minute
     */
    public RenewalResult run(LockRegistry registry, int holds, Duration lease, int periods)
            throws InterruptedException {
        long started = System.nanoTime();
        Lease renewed = Lease.renewed(lease);
        List<CompletableFuture<DetachedLock>> acquiring = new ArrayList<>(holds);
        for (int i = 0; i < holds; i++) {
            acquiring.add(registry.obtain("renewal:" + i, renewed).lockAsync().toCompletableFuture());
        }
        await(acquiring, "granted");
        List<DetachedLock> held = acquiring.stream().map(CompletableFuture::join).toList();
        Duration period = lease.dividedBy(3);
        // one full period first: the holds taken last have had their first renewal by then, and the acquisitions'
        // commands are out of the window
        Thread.sleep(period.toMillis());
        RedisCounters before = stats.read();
        Thread.sleep(period.multipliedBy(periods).toMillis());
        RedisCounters window = stats.read().minus(before);
        int heldAtEnd = (int) held.stream().filter(DetachedLock::isHeld).count();
        List<CompletableFuture<Void>> releasing = new ArrayList<>(holds);
        for (DetachedLock hold : held) {
            // a hold found lost is already counted above; its release failing says nothing more
            releasing.add(hold.unlockAsync().toCompletableFuture().exceptionally(failure -> null));
        }
        await(releasing, "released");
        long scripts = SCRIPT_COMMANDS.stream().mapToLong(c -> window.calls().getOrDefault(c, 0L)).sum();
        return new RenewalResult(holds, lease, periods, scripts / (double) periods, perPeriod(window, periods),
                heldAtEnd, (System.nanoTime() - started) / 1e9);
    }

    private static Map<String, Double> perPeriod(RedisCounters window, int periods) {
        Map<String, Double> perPeriod = new LinkedHashMap<>();
        window.calls().entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> perPeriod.put(e.getKey(), e.getValue() / (double) periods));
        return perPeriod;
    }

    private static void await(List<? extends CompletableFuture<?>> all, String what) throws InterruptedException {
        try {
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException ex) {
            long done = all.stream().filter(CompletableFuture::isDone).count();
            throw new IllegalStateException("only " + done + " of " + all.size() + " holds were " + what + " in "
                    + WAIT_SECONDS + " s", ex);
        } catch (ExecutionException ex) {
            throw new IllegalStateException("a hold was not " + what, ex.getCause());
        }
    }
}
