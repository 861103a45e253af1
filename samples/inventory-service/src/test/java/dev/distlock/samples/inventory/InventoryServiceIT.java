package dev.distlock.samples.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockRegistry;
import dev.distlock.election.spring.LeaderCandidate;
import dev.distlock.micrometer.DistlockMetrics;
import dev.distlock.test.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Two instances of the service (two application contexts, as two processes would be) on one real
 * redis-server and one database: the first with its HTTP server and actuator, the second without.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class InventoryServiceIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static ConfigurableApplicationContext web;
    private static ConfigurableApplicationContext worker;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void startTwoInstances() {
        String database = "jdbc:h2:mem:inventory-it-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        // the first instance creates and fills the database (schema.sql, data.sql); the second finds it ready
        web = instance(WebApplicationType.SERVLET, database, "server.port=0");
        worker = instance(WebApplicationType.NONE, database, "spring.sql.init.mode=never");
    }

    @AfterAll
    static void stopInstances() {
        if (worker != null) {
            worker.close();
        }
        if (web != null) {
            web.close();
        }
    }

    private static ConfigurableApplicationContext instance(WebApplicationType type, String database,
            String... properties) {
        List<String> arguments = new ArrayList<>(List.of(
                // arguments, not default properties: those would lose to application.yml's localhost:6379
                "--spring.data.redis.host=" + redis.server().host(),
                "--spring.data.redis.port=" + redis.server().port(),
                "--spring.datasource.url=" + database,
                "--spring.main.banner-mode=off",
                // long enough that no waiter of the busy tests times out on a slow machine
                "--inventory.reserve-timeout=10s",
                "--inventory.audit.interval=1h")); // the tests call the audit themselves
        Stream.of(properties).map(property -> "--" + property).forEach(arguments::add);
        return new SpringApplicationBuilder(InventoryServiceApplication.class).web(type)
                .run(arguments.toArray(String[]::new));
    }

    @Test
    void reservationsFromTwoInstancesOnManyThreadsKeepTheStockExact() throws Exception {
        open("sku-busy", 1000);

        List<Reservation> reservations = onThreads(8, 25, instance -> () -> service(instance).reserve("sku-busy", 1));

        assertThat(reservations).hasSize(200);
        assertThat(service(web).onHand("sku-busy")).isEqualTo(800);
        assertThat(ledger().balances()).allSatisfy(balance -> assertThat(balance.balanced()).isTrue());
        // one writer at a time, each after the previous one committed: tokens grow in the order of the writes
        List<Long> fences = jdbc().queryForList(
                "select fence from movement where sku = 'sku-busy' and kind = 'reservation' order by id", Long.class);
        assertThat(fences).hasSize(200).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void supplierCallsFromBothInstancesAreNeverMoreThanItsPermitsAtOnce() throws Exception {
        List<Long> prices = onThreads(6, 2, instance -> () -> instance.getBean(SupplierQuotes.class).quote("sku-1"));

        assertThat(prices).hasSize(12).containsOnly(prices.get(0));
        List<long[]> calls = new ArrayList<>(web.getBean(SupplierQuotes.class).calls());
        calls.addAll(worker.getBean(SupplierQuotes.class).calls());
        assertThat(calls).hasSize(12);
        assertThat(mostAtOnce(calls)).as("calls at once, across both instances").isPositive()
                .isLessThanOrEqualTo(SupplierQuotes.SUPPLIER_CALLS);
    }

    /** The most intervals {@code {began, ended}} that overlap at one moment. */
    private static int mostAtOnce(List<long[]> calls) {
        int most = 0;
        for (long[] call : calls) {
            int atOnce = (int) calls.stream().filter(other -> other[0] <= call[0] && call[0] < other[1]).count();
            most = Math.max(most, atOnce);
        }
        return most;
    }

    @Test
    void theDatabaseRefusesAWriteWithAnOlderFencingTokenThanTheLastOne() {
        open("sku-fenced", 10);
        long fence = service(web).reserve("sku-fenced", 1).fencingToken();

        assertThatThrownBy(() -> transaction().executeWithoutResult(
                status -> ledger().take("sku-fenced", 1, fence - 1)))
                .isInstanceOf(StaleFencingTokenException.class)
                .hasMessageContaining(Long.toString(fence - 1));
        assertThat(service(web).onHand("sku-fenced")).isEqualTo(9);
        // 0 is what unlocked writes record: as a token it would switch the check off
        assertThatThrownBy(() -> ledger().take("sku-fenced", 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void transfersTakeBothLocksAndMixSafelyWithReservationsOnTheOtherInstance() throws Exception {
        open("sku-a", 1000);
        open("sku-b", 1000);
        StockTransfers transfers = web.getBean(StockTransfers.class);
        ExecutorService threads = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (String sku : List.of("sku-a", "sku-b")) {
                // opposite directions at once: the two names are taken in one order whatever the direction
                work.add(threads.submit(() -> repeat(50, () -> transfers.transfer("sku-a", "sku-b", 2))));
                work.add(threads.submit(() -> repeat(50, () -> transfers.transfer("sku-b", "sku-a", 1))));
                work.add(threads.submit(() -> repeat(50, () -> service(worker).reserve(sku, 1))));
            }
            for (Future<?> future : work) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }

        long onHand = service(web).onHand("sku-a") + service(web).onHand("sku-b");
        assertThat(onHand).isEqualTo(2000 - 100);
        assertThat(ledger().balances()).allSatisfy(balance -> assertThat(balance.balanced()).isTrue());
        // each of the 200 transfers wrote one movement out of a SKU and one into the other
        assertThat(jdbc().queryForObject("select count(*) from movement where kind = 'transfer' and sku in "
                + "('sku-a', 'sku-b')", Long.class)).isEqualTo(400);
    }

    @Test
    void onlyTheInstanceElectedLeaderAuditsAndAnotherTakesOverWhenItYields() throws Exception {
        LeaderCandidate onWeb = web.getBean(LeaderCandidate.class);
        LeaderCandidate onWorker = worker.getBean(LeaderCandidate.class);
        // the elections began before this test's Redis was flushed: they begin again, the web instance first
        onWeb.stop();
        onWorker.stop();
        onWeb.start();
        awaitLeader(onWeb);
        onWorker.start();
        assertThat(auditRuns(web, worker)).containsExactly(1L, 0L);

        onWeb.election().yieldLeadership().get(30, TimeUnit.SECONDS);
        awaitLeader(onWorker);

        assertThat(onWeb.isLeader()).isFalse();
        assertThat(auditRuns(web, worker)).containsExactly(0L, 1L);
    }

    private static void awaitLeader(LeaderCandidate candidate) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!candidate.isLeader()) {
            assertThat(System.nanoTime() - deadline).as("%s elected", candidate).isNegative();
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    /** Runs the audit on both instances: how many times each actually audited. */
    private static List<Long> auditRuns(ConfigurableApplicationContext... instances) {
        List<Long> runs = new ArrayList<>();
        for (ConfigurableApplicationContext instance : instances) {
            StockAudit audit = instance.getBean(StockAudit.class);
            long before = audit.runs();
            audit.run();
            runs.add(audit.runs() - before);
        }
        return runs;
    }

    @Test
    void overHttpAReservationAnswersWithItsTokenAndABusySkuAnswers503() throws Exception {
        long before = service(web).onHand("sku-2");
        HttpResponse<String> reserved = post("/stock/sku-2/reservations?quantity=3");
        assertThat(reserved.statusCode()).isEqualTo(200);
        assertThat(reserved.body()).contains("\"sku\":\"sku-2\"", "\"quantity\":3", "\"fencingToken\":");
        assertThat(get("/stock/sku-2").body()).isEqualTo(Long.toString(before - 3));

        FencedLock busy = registry(worker).obtain("sku:sku-2");
        busy.lock();
        try {
            HttpResponse<String> timedOut = post("/stock/sku-2/reservations");
            assertThat(timedOut.statusCode()).isEqualTo(503);
            assertThat(timedOut.body()).contains("sku:sku-2");
        } finally {
            busy.unlock();
        }
        assertThat(post("/stock/sku-9/reservations").statusCode()).isEqualTo(404);
        assertThat(post("/transfers?from=sku-1&to=sku-2&quantity=500").statusCode()).isEqualTo(409);
    }

    @Test
    void theActuatorShowsHealthTheHeldLocksAndTheMeters() throws Exception {
        service(web).reserve("sku-3", 1);
        FencedLock held = registry(web).obtain("sku:sku-3", Lease.renewed(), "held-by-test");
        held.lock();
        try {
            HttpResponse<String> locks = get("/actuator/distlocks");
            assertThat(locks.statusCode()).isEqualTo(200);
            assertThat(locks.body()).contains("\"name\":\"sku:sku-3\"", "\"key\":\"inventory:{sku:sku-3}\"",
                    "\"label\":\"held-by-test\"", "\"fencingToken\":" + held.fencingToken());
            // on the test's own server, not on whatever Redis application.yml points at
            assertThat(redis.server().command("EXISTS", "inventory:{sku:sku-3}")).isEqualTo(1L);
        } finally {
            held.unlock();
        }

        HttpResponse<String> health = get("/actuator/health");
        assertThat(health.statusCode()).isEqualTo(200);
        // {"distlock":{"details":{"maxmemoryPolicy":"noeviction"},"status":"UP"}, ...}
        assertThat(health.body()).containsPattern("\"distlock\":\\{(\"details\":\\{[^}]*\\},)?\"status\":\"UP\"")
                .contains("\"maxmemoryPolicy\":\"noeviction\"");

        long reservations = web.getBean(MeterRegistry.class).get(DistlockMetrics.ACQUIRE)
                .tags("lock", InventoryService.RESERVE_LOCK, "outcome", "acquired").timer().count();
        HttpResponse<String> acquire = get("/actuator/metrics/distlock.acquire?tag=lock:"
                + InventoryService.RESERVE_LOCK + "&tag=outcome:acquired");
        assertThat(acquire.statusCode()).isEqualTo(200);
        assertThat(reservations).isPositive();
        assertThat(acquire.body()).contains("\"statistic\":\"COUNT\",\"value\":" + reservations + ".0");
        assertThat(get("/actuator/metrics/distlock.held").statusCode()).isEqualTo(200);
    }

    private void open(String sku, long units) {
        transaction().executeWithoutResult(status -> ledger().open(sku, units));
    }

    /** Runs {@code perThread} calls on each of {@code threads} threads, alternating between the instances. */
    private <T> List<T> onThreads(int threads, int perThread,
            Function<ConfigurableApplicationContext, Callable<T>> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<T>>> futures = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                Callable<T> task = call.apply(thread % 2 == 0 ? web : worker);
                futures.add(pool.submit(() -> {
                    List<T> results = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        results.add(task.call());
                    }
                    return results;
                }));
            }
            List<T> all = new ArrayList<>();
            for (Future<List<T>> future : futures) {
                all.addAll(future.get(60, TimeUnit.SECONDS));
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    private static Void repeat(int times, ThrowingRunnable action) throws Exception {
        for (int i = 0; i < times; i++) {
            action.run();
        }
        return null;
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static InventoryService service(ConfigurableApplicationContext instance) {
        return instance.getBean(InventoryService.class);
    }

    private static LockRegistry registry(ConfigurableApplicationContext instance) {
        return instance.getBean(LockRegistry.class);
    }

    private StockLedger ledger() {
        return web.getBean(StockLedger.class);
    }

    private JdbcTemplate jdbc() {
        return web.getBean(JdbcTemplate.class);
    }

    private TransactionTemplate transaction() {
        return web.getBean(TransactionTemplate.class);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + web.getEnvironment().getProperty("local.server.port") + path);
    }
}
