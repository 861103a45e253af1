package dev.distlock.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.RedisServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The starter in a real application of this module's Spring Boot generation, on a real redis-server: the
 * annotation, the registry bean, the meters, the endpoint and the health contributor, over HTTP.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CompatApplicationIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private ConfigurableApplicationContext context;
    private String baseUrl;

    @BeforeEach
    void start() {
        context = SpringApplication.run(CompatApplication.class, "--server.port=0",
                "--spring.data.redis.port=" + redis.server().port(), "--spring.main.banner-mode=off",
                "--distlock.actuator.force-release.enabled=true");
        baseUrl = "http://localhost:" + context.getEnvironment().getProperty("local.server.port");
    }

    @AfterEach
    void stop() {
        context.close();
    }

    @Test
    void runsOnTheSpringBootGenerationThisModuleIsBuiltOn() {
        assertThat(SpringBootVersion.getVersion()).isEqualTo(System.getProperty("compat.boot.version"));
        assertThat(context.getBean("distlockHealthIndicator").getClass().getSimpleName())
                .isEqualTo(System.getProperty("compat.health.indicator"));
    }

    @Test
    void theAnnotationKeepsANonAtomicCounterExactAndTheMetersCountEveryAcquire() throws Exception {
        Counter counter = context.getBean(Counter.class);

        ConcurrentCalls.increment(counter, "hits", 200);

        assertThat(counter.value("hits")).isEqualTo(200);
        assertThat(get("/actuator/metrics/distlock.acquire?tag=lock:Counter.increment&tag=outcome:acquired"))
                .contains("\"COUNT\"").contains("\"value\":200.0");
    }

    @Test
    void theRegistryBeanLocksRedisByHandUnderTheConfiguredPrefix() throws Exception {
        LockRegistry registry = context.getBean(LockRegistry.class);
        assertThat(registry).isInstanceOf(RedisLockRegistry.class);
        FencedLock lock = registry.obtain("by-hand");

        assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
        try {
            assertThat(redis.server().command("EXISTS", "compat:{by-hand}")).isEqualTo(1L);
        } finally {
            lock.unlock();
        }
    }

    @Test
    void theEndpointListsAHoldOfAnAnnotatedCall() throws Exception {
        Counter counter = context.getBean(Counter.class);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Future<?> hold = thread.submit(() -> {
                counter.holdUntil("listed", held, release);
                return null;
            });
            assertThat(held.await(60, TimeUnit.SECONDS)).isTrue();

            assertThat(get("/actuator/distlocks")).contains("\"name\":\"counter:listed\"")
                    .contains("\"key\":\"compat:{counter:listed}\"").contains("\"label\":\"Counter.holdUntil\"");

            release.countDown();
            hold.get(60, TimeUnit.SECONDS);
        } finally {
            release.countDown();
            thread.shutdownNow();
        }
    }

    @Test
    void theHealthContributorIsUpWithTheServerVersion() throws Exception {
        String health = get("/actuator/health/distlock");

        assertThat(health).contains("\"status\":\"UP\"").contains("\"version\":\"").contains("\"role\":\"master\"")
                .contains("\"maxmemoryPolicy\":\"noeviction\"");
        assertThat(get("/actuator/health")).contains("\"distlock\"");
    }

    /**
     * An operator frees a hung hold by the fencing token the endpoint showed: a stale token leaves it alone, the right
     * one ends it (its owner finds it lost) and is counted.
     */
    @Test
    void anOperatorForceReleasesAHoldOverHttpByTheFencingTokenTheEndpointShowed() throws Exception {
        FencedLock hung = context.getBean(LockRegistry.class).obtain("hung");
        assertThat(hung.tryLock(Duration.ofSeconds(10))).isTrue();
        long fence = hung.fencingToken();
        assertThat(get("/actuator/distlocks/hung")).contains("\"fencingToken\":" + fence);

        assertThat(delete("/actuator/distlocks/hung?fencingToken=" + (fence - 1)))
                .contains("\"outcome\":\"OTHER_HOLDER\"").contains("\"currentFencingToken\":" + fence);
        assertThat(delete("/actuator/distlocks/hung?fencingToken=" + fence)).contains("\"outcome\":\"RELEASED\"")
                .contains("\"key\":\"compat:{hung}\"").contains("\"application\":\"distlock-compat\"");

        assertThat((String) redis.server().command("GET", "compat:{hung}")).startsWith("~ ");
        assertThatThrownBy(hung::unlock).isInstanceOf(LockLostException.class);
        assertThat(get("/actuator/metrics/distlock.force.released")).contains("\"value\":1.0");
    }

    private String get(String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).GET(), "GET " + path);
    }

    private String delete(String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).DELETE(), "DELETE " + path);
    }

    private String send(HttpRequest.Builder request, String what) throws Exception {
        HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("%s: %s", what, response.body()).isEqualTo(200);
        return response.body();
    }
}
