package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.LockRegistry;
import dev.distlock.memory.InMemoryLockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.redlock.RedlockLockRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** How {@code distlock.redlock.*} chooses and configures the Redlock registry; no server is contacted. */
class RedlockAutoConfigurationTests {

    private static final String THREE_NODES =
            "distlock.redlock.nodes=redis://127.0.0.1:1,redis://127.0.0.1:2,redis://127.0.0.1:3";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues("spring.data.redis.port=1")
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistlockAutoConfiguration.class,
                    DistlockActuatorAutoConfiguration.class, DistlockHealthAutoConfiguration.class));

    @Test
    void listingNodesMakesRedlockTheStoreInsteadOfTheApplicationsRedis() {
        runner.withPropertyValues(THREE_NODES, "distlock.key-prefix=orders", "distlock.redlock.node-timeout=30ms")
                .run(context -> {
                    assertThat(context).hasSingleBean(LockRegistry.class);
                    assertThat(context).hasSingleBean(RedlockLockRegistry.class);
                    assertThat(context).doesNotHaveBean(RedisLockRegistry.class);
                    assertThat(context).doesNotHaveBean(DistlockAutoConfiguration.LISTENER_CONTAINER_BEAN);
                    // the health indicator checks the Redlock servers, not the application's Redis
                    assertThat(context.getBean("distlockHealthIndicator", HealthIndicator.class).health())
                            .satisfies(health -> assertThat(health.getStatus()).isEqualTo(Status.DOWN))
                            .satisfies(health -> assertThat(health.getDetails()).containsEntry("serversUp", 0)
                                    .containsKey("servers"))
                            .satisfies(health -> assertThat((String) health.getDetails().get("error"))
                                    .contains("0 of 3 Redlock servers can take locks, 2 needed"));
                    assertThat(context.getBean(RedlockLockRegistry.class).keyOf("x")).isEqualTo("orders:{x}");
                    assertThat(context.getBean(RedlockNodes.class).factories()).hasSize(3);
                });
    }

    @Test
    void anExplicitStoreWinsOverListedNodes() {
        runner.withPropertyValues(THREE_NODES, "distlock.store=memory")
                .run(context -> assertThat(context).hasSingleBean(InMemoryLockRegistry.class)
                        .doesNotHaveBean(RedlockNodes.class));
        runner.withPropertyValues(THREE_NODES, "distlock.store=redis")
                .run(context -> assertThat(context).hasSingleBean(RedisLockRegistry.class));
    }

    @Test
    void invalidNodesFailTheStartupNamingTheEntryWithoutRepeatingItsPassword() {
        assertStartupFails("distlock.store=redlock", "distlock.redlock.nodes", "an odd number of independent");
        assertStartupFails("distlock.redlock.nodes=redis://a:1,redis://b:1", "distlock.redlock.nodes",
                "an odd number of independent Redis servers, at least 3");
        assertStartupFails("distlock.redlock.nodes=redis://a:1,redis-sentinel://b:1,redis://c:1",
                "distlock.redlock.nodes[1]", "must be a redis:// or rediss:// URI of one server");
        assertStartupFails("distlock.redlock.nodes=redis://a:1,redis://b:1,redis://:secret@a:1",
                "distlock.redlock.nodes[2]", "names a:1 a second time");
        runner.withPropertyValues("distlock.redlock.nodes=redis://a:1,redis://b:1,redis://:secret@a:1").run(context ->
                assertThat(context.getStartupFailure()).rootCause().message().doesNotContain("secret"));
        assertStartupFails(THREE_NODES.replace("redis://127.0.0.1:3", "redis://127.0.0.1:notaport"),
                "distlock.redlock.nodes[2]", "is not a valid Redis URI");
    }

    @Test
    void otherRedlockSettingsThatCannotWorkFailTheStartupNamingTheProperty() {
        runner.withPropertyValues(THREE_NODES, "distlock.redlock.node-timeout=0ms").run(context ->
                assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("distlock.redlock.node-timeout")
                        .hasMessageContaining("between 1ms and 10s"));
        runner.withPropertyValues(THREE_NODES, "distlock.replication.acks=1").run(context ->
                assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("distlock.replication.acks")
                        .hasMessageContaining("does not apply to Redlock"));
        runner.withPropertyValues(THREE_NODES).withClassLoader(new FilteredClassLoader("io.lettuce"))
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .hasMessageContaining("distlock.redlock.nodes").hasMessageContaining("needs the Lettuce client"));
    }

    private void assertStartupFails(String property, String name, String reason) {
        runner.withPropertyValues(property).run(context -> {
            assertThat(context).as(property).hasFailed();
            assertThat(context.getStartupFailure()).as(property).rootCause()
                    .hasMessageContaining(name).hasMessageContaining(reason);
        });
    }
}
