package dev.distlock.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.LockRegistry;
import dev.distlock.redlock.RedlockLockRegistry;
import dev.distlock.test.RedisServer;
import dev.distlock.test.RedisServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The same application with {@code distlock.redlock.nodes} on three real redis-servers, on this module's Spring
 * Boot generation: a Redlock registry behind the annotation, and the health contributor checking every server.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CompatRedlockIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.servers(3);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void redlockNodesMakeTheRegistryAndTheHealthContributorChecksEveryServer() throws Exception {
        String nodes = redis.servers().stream().map(RedisServer::uri).collect(Collectors.joining(","));
        try (ConfigurableApplicationContext context = SpringApplication.run(CompatApplication.class,
                "--server.port=0", "--spring.data.redis.port=" + redis.server().port(),
                "--distlock.redlock.nodes=" + nodes, "--spring.main.banner-mode=off")) {
            assertThat(context.getBean(LockRegistry.class)).isInstanceOf(RedlockLockRegistry.class);
            assertThat(context.getBean("distlockHealthIndicator").getClass().getSimpleName())
                    .isEqualTo(System.getProperty("compat.health.indicator"));

            Counter counter = context.getBean(Counter.class);
            ConcurrentCalls.increment(counter, "redlock", 100);
            assertThat(counter.value("redlock")).isEqualTo(100);

            String port = context.getEnvironment().getProperty("local.server.port");
            HttpResponse<String> health = http.send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + port + "/actuator/health/distlock"))
                    .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"UP\"").contains("\"quorum\":2")
                    .contains("\"serversUp\":3").contains("\"" + redis.servers().get(2).host() + ":"
                            + redis.servers().get(2).port() + "\"");
        }
    }
}
