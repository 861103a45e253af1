package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.LockRegistry;
import dev.distlock.core.LockTimeoutException;
import dev.distlock.test.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
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
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

/**
 * Two application contexts on one real redis-server stand for two instances of a service; they call
 * annotated methods concurrently.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TwoInstancesIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

    @BeforeEach
    void startTwoInstances() {
        for (int i = 0; i < 2; i++) {
            instances.add(new SpringApplicationBuilder(Instance.class)
                    .web(WebApplicationType.NONE)
                    .properties("spring.data.redis.port=" + redis.server().port(),
                            "spring.datasource.url=jdbc:h2:mem:two-instances;DB_CLOSE_DELAY=-1",
                            "spring.main.banner-mode=off")
                    .run());
        }
        instances.get(0).getBean(JdbcTemplate.class).execute(
                "create table if not exists counter (name varchar(64) primary key, amount bigint)");
        instances.get(0).getBean(JdbcTemplate.class).update("delete from counter");
    }

    @AfterEach
    void stopInstances() {
        instances.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void aNonAtomicRedisCounterStaysExactAcrossTwoInstances() throws Exception {
        hammer(service -> service.incrementInRedis("hits"), 4, 100);

        assertThat(service(0).redisCounter("hits")).isEqualTo(800);
    }

    @Test
    void theLockWrapsTheTransactionSoTheNextHolderSeesTheCommittedWrite() throws Exception {
        service(0).createRow("stock");

        hammer(service -> service.incrementInDatabase("stock"), 4, 50);

        assertThat(service(0).databaseCounter("stock")).isEqualTo(400);
    }

    @Test
    void aBusyLockTimesOutWithTheKeyOrSkipsWithoutRunningTheMethod() throws Exception {
        LockRegistry otherInstance = instances.get(1).getBean(LockRegistry.class);
        otherInstance.obtain("report").lock();

        assertThatThrownBy(() -> service(0).report()).isInstanceOf(LockTimeoutException.class)
                .hasMessageContaining("report");
        assertThat(service(0).reportIfFree()).isNull();
        assertThat(service(0).reportRuns()).isZero();
    }

    @Test
    void aNullKeyFailsTheCallWithoutRunningTheMethod() {
        assertThatThrownBy(() -> service(0).byKey(null))
                .isInstanceOf(RuntimeException.class)
                .hasMessageContaining("byKey")
                .hasMessageContaining("#key");
        assertThat(service(0).byKeyRuns()).isZero();
    }

    @Test
    void nestedCallsOnTheSameKeyAreReentrant() {
        assertThat(service(0).outer("42")).isEqualTo("inner 42");
    }

    @Test
    void meterCountDoesNotGrowWithDistinctKeys() {
        MeterRegistry meters = instances.get(0).getBean(MeterRegistry.class);
        Service service = service(0);
        service.touch("warm-up");
        int before = distlockMeters(meters);

        for (int i = 0; i < 10_000; i++) {
            service.touch("order:" + i);
        }

        assertThat(before).isPositive();
        assertThat(distlockMeters(meters)).isEqualTo(before);
    }

    private static int distlockMeters(MeterRegistry meters) {
        return (int) meters.getMeters().stream().filter(meter -> meter.getId().getName().startsWith("distlock.")).count();
    }

    private Service service(int instance) {
        return instances.get(instance).getBean(Service.class);
    }

    /** Runs {@code call} from {@code threads} threads per instance, {@code times} each, all starting together. */
    private void hammer(java.util.function.Consumer<Service> call, int threads, int times) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads * instances.size());
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int instance = 0; instance < instances.size(); instance++) {
                Service service = service(instance);
                for (int t = 0; t < threads; t++) {
                    work.add(pool.submit(() -> {
                        start.await();
                        for (int i = 0; i < times; i++) {
                            call.accept(service);
                        }
                        return null;
                    }));
                }
            }
            start.countDown();
            for (Future<?> future : work) {
                future.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Instance {

        @Bean
        Service service(StringRedisTemplate redis, JdbcTemplate jdbc, ObjectProvider<Service> self) {
            return new Service(redis, jdbc, self);
        }

        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    /** An annotated service as users write them; public methods so class-based proxies intercept them. */
    public static class Service {

        private final StringRedisTemplate redis;
        private final JdbcTemplate jdbc;
        private final ObjectProvider<Service> self;
        private volatile int reportRuns;
        private volatile int byKeyRuns;

        public Service(StringRedisTemplate redis, JdbcTemplate jdbc, ObjectProvider<Service> self) {
            this.redis = redis;
            this.jdbc = jdbc;
            this.self = self;
        }

        @DistributedLock(name = "'counter:' + #name", timeout = "60s")
        public void incrementInRedis(String name) {
            String value = redis.opsForValue().get("counter:" + name);
            redis.opsForValue().set("counter:" + name, Long.toString((value == null ? 0 : Long.parseLong(value)) + 1));
        }

        public long redisCounter(String name) {
            return Long.parseLong(redis.opsForValue().get("counter:" + name));
        }

        public void createRow(String name) {
            jdbc.update("insert into counter (name, amount) values (?, 0)", name);
        }

        @DistributedLock(name = "#name", timeout = "60s")
        @Transactional
        public void incrementInDatabase(String name) {
            long value = jdbc.queryForObject("select amount from counter where name = ?", Long.class, name);
            Thread.yield();
            jdbc.update("update counter set amount = ? where name = ?", value + 1, name);
        }

        public long databaseCounter(String name) {
            return jdbc.queryForObject("select amount from counter where name = ?", Long.class, name);
        }

        @DistributedLock(name = "report", timeout = "200ms")
        public String report() {
            reportRuns++;
            return "report";
        }

        @DistributedLock(name = "report", timeout = "0", onTimeout = DistributedLock.TimeoutAction.SKIP)
        public String reportIfFree() {
            reportRuns++;
            return "report";
        }

        public int reportRuns() {
            return reportRuns;
        }

        @DistributedLock(name = "#key")
        public String byKey(String key) {
            byKeyRuns++;
            return key;
        }

        public int byKeyRuns() {
            return byKeyRuns;
        }

        @DistributedLock(name = "'item:' + #id", timeout = "1s")
        public String outer(String id) {
            return self.getObject().inner(id);
        }

        @DistributedLock(name = "'item:' + #id", timeout = "1s")
        public String inner(String id) {
            return "inner " + id;
        }

        @DistributedLock(name = "#id", timeout = "1s", label = "touch")
        public void touch(String id) {
        }
    }
}
