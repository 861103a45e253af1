package dev.distlock.samples.inventory.demo;

import dev.distlock.samples.inventory.InventoryService;
import dev.distlock.samples.inventory.demo.DemoRedis.RedisUnavailableException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The demo: several instances of the inventory service, each a separate JVM, reserve stock of the same few
 * SKUs at once on one Redis and one database, first through {@link InventoryService#reserve} (under
 * {@code @DistributedLock}), then through its unguarded twin {@link UnguardedInventory}. It prints what the
 * database holds after each round and what the instances' meters recorded.
 *
 * <p>Run it with {@code ./mvnw -q -pl samples/inventory-service -am compile exec:java}. Settings (system
 * properties): {@code demo.instances} (3), {@code demo.threads} per instance (4), {@code demo.operations}
 * per instance and round (1500), {@code demo.skus} (4), and Spring Boot's {@code spring.data.redis.*}.
 * It touches only Redis keys starting with {@value #KEY_PREFIX}{@code :}.
 */
public final class InventoryDemo {

    /** The lock keys' prefix in the demo profile ({@code distlock.key-prefix} in application-demo.yml). */
    static final String KEY_PREFIX = "inventory-demo";

    private final DemoSettings settings;
    private final PrintStream out;
    private final int defaultPort;

    public InventoryDemo(DemoSettings settings, PrintStream out) {
        this(settings, out, DemoRedis.DEFAULT_PORT);
    }

    /** A demo that looks for Redis on {@code defaultPort} of localhost when the settings name none. */
    InventoryDemo(DemoSettings settings, PrintStream out, int defaultPort) {
        this.settings = settings;
        this.out = out;
        this.defaultPort = defaultPort;
    }

    public static void main(String[] args) throws Exception {
        int status;
        try {
            status = new InventoryDemo(DemoSettings.fromSystemProperties(), System.out).run().exitStatus();
        } catch (RedisUnavailableException ex) {
            System.err.println(howToStartRedis(ex));
            status = 2;
        }
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs both rounds and prints the report. When the settings name no Redis and none answers on localhost's
     * default port, it starts a redis-server of its own for the run ({@link DemoRedisServer}).
     *
     * @throws RedisUnavailableException at once if no Redis answers and none can be started
     */
    public DemoReport run() throws Exception {
        DemoRedis redis;
        try {
            redis = DemoRedis.connect(settings, defaultPort);
        } catch (RedisUnavailableException unavailable) {
            return runOnOwnServer(unavailable);
        }
        return run(settings, redis);
    }

    /** Runs on a redis-server started for this run, unless the settings name a Redis or none can be started. */
    private DemoReport runOnOwnServer(RedisUnavailableException unavailable) throws Exception {
        Path binary = settings.namesRedis() ? null : DemoRedisServer.binary().orElse(null);
        if (binary == null) {
            throw unavailable;
        }
        DemoRedisServer server;
        try {
            server = DemoRedisServer.start(binary);
        } catch (IOException notStarted) {
            unavailable.addSuppressed(notStarted);
            throw unavailable;
        }
        try (server) {
            out.printf("%s: starting %s on 127.0.0.1:%d for this run (stopped at its end)%n%n",
                    unavailable.getMessage(), binary, server.port());
            DemoSettings local = settings.onLocalRedis(server.port());
            return run(local, DemoRedis.connect(local, defaultPort));
        }
    }

    private DemoReport run(DemoSettings used, DemoRedis connected) throws Exception {
        try (DemoRedis redis = connected) {
            // left behind by an interrupted run, a held lock would make the first round wait for its lease
            redis.deleteKeys(KEY_PREFIX + ":");
            out.printf(Locale.US, "distlock demo: %d instances of the inventory service (separate JVMs), %d threads "
                    + "each, %,d reservations%neach per round on %d SKUs. Locks in Redis at %s, stock in a database "
                    + "the instances share.%n%n", used.instances(), used.threads(), used.operations(),
                    used.skus(), redis.address());
            try (DemoDatabase database = DemoDatabase.start()) {
                DemoReport report = runRounds(used, database);
                report.print(out);
                return report;
            } finally {
                redis.deleteKeys(KEY_PREFIX + ":");
            }
        }
    }

    private DemoReport runRounds(DemoSettings settings, DemoDatabase database) throws Exception {
        List<String> skus = IntStream.rangeClosed(1, settings.skus()).mapToObj(i -> "sku-" + i).toList();
        out.printf("starting %d instances...%n", settings.instances());
        long start = System.nanoTime();
        try (DemoInstances instances = DemoInstances.start(settings, database.url(), out)) {
            out.printf(Locale.US, "%d instances ready in %.1f s%n%n", settings.instances(),
                    (System.nanoTime() - start) / 1e9);
            out.println("with the lock:    InventoryService.reserve, @DistributedLock(\"'sku:' + #sku\") around "
                    + "@Transactional");
            RoundOutcome locked = round(settings, instances, database, skus, true);
            out.println("without the lock: UnguardedInventory.reserve, the same @Transactional method without "
                    + "@DistributedLock");
            RoundOutcome unlocked = round(settings, instances, database, skus, false);
            return new DemoReport(locked, unlocked);
        }
    }

    private RoundOutcome round(DemoSettings settings, DemoInstances instances, DemoDatabase database,
            List<String> skus, boolean locked) throws InterruptedException {
        // enough stock that no reservation is refused, even if every one picks the same SKU
        long opening = settings.operationsPerRound();
        database.seed(skus, opening);
        long start = System.nanoTime();
        List<RoundResult> results = instances.run(
                new RoundRequest(locked, settings.operations(), settings.threads(), skus),
                locked ? "with the lock" : "without the lock", settings.operationsPerRound());
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        return RoundOutcome.of(locked, results, database.balances(), opening, elapsed);
    }

    /** What the demo says when no Redis answers. */
    static String howToStartRedis(RedisUnavailableException ex) {
        return "The demo needs Redis, and " + ex.getMessage() + "\n\n"
                + "Install redis-server (the demo then starts one itself) or start one, then run the demo again:\n"
                + "  redis-server                                                     (Redis installed here)\n"
                + "  docker compose -f samples/inventory-service/compose.yaml up -d   (Docker)\n"
                + "or point the demo at yours: -Dspring.data.redis.host=... -Dspring.data.redis.port=...";
    }
}
