package dev.distlock.samples.inventory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Runs the service at development time against a Redis that Testcontainers starts in Docker, whatever
 * {@code spring.data.redis.*} says:
 *
 * <pre>
 * ./mvnw -pl samples/inventory-service -am test-compile spring-boot:test-run
 * </pre>
 *
 * <p>No test starts it: it needs Docker, and the tests here use the {@code redis-server} of the test harness.
 */
public final class TestInventoryServiceApplication {

    private TestInventoryServiceApplication() {
    }

    public static void main(String[] args) {
        SpringApplication.from(InventoryServiceApplication::main).with(RedisContainer.class).run(args);
    }

    /**
     * The container, whose address {@code @ServiceConnection} hands to Spring Boot's Redis auto-configuration.
     * Not annotated with {@code @TestConfiguration}: component scanning from the application's package would
     * then pick it up in the integration tests, which start the application without Docker.
     */
    static class RedisContainer {

        @Bean
        @ServiceConnection(name = "redis")
        GenericContainer<?> redisContainer() {
            return new GenericContainer<>(DockerImageName.parse("redis:7.4")).withExposedPorts(6379);
        }
    }
}
