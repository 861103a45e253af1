package dev.distlock.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.actuate.DistlocksEndpoint;
import dev.distlock.core.LockRegistry;
import dev.distlock.test.RedisServer;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** What the deployment report reads from real redis-servers, and what it says each setup cannot promise. */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DeploymentReportsIT {

    private final Deque<AutoCloseable> started = new ArrayDeque<>();

    @AfterEach
    void stop() throws Exception {
        while (!started.isEmpty()) {
            started.pop().close();
        }
    }

    @Test
    void aServerWithoutPersistenceOrReplicasCannotPromiseThatLocksSurviveARestartOrAnOutage() {
        RedisServer server = server("--save", "", "--appendonly", "no");

        DeploymentReport report = DeploymentReports.redis("lockRegistry", factory(server, null, null), "auto");

        assertThat(report.version()).isEqualTo(info(server, "server", "redis_version"));
        assertThat(report.servers()).containsExactly(server.host() + ":" + server.port());
        assertThat(report.topology()).isEqualTo("standalone");
        assertThat(report.replicas()).isZero();
        assertThat(report.acknowledgement()).isEqualTo("none (no replica)");
        assertThat(report.persistence()).isEqualTo("none");
        assertThat(report.evictionPolicy()).isEqualTo("noeviction");
        assertThat(report.scripting()).startsWith("functions (FCALL");
        assertThat(report.unreadable()).isEmpty();
        assertThat(report.cannotPromise()).anyMatch(line -> line.startsWith("no persistence: a restart"))
                .anyMatch(line -> line.startsWith("no replica and no failover"))
                .contains(DeploymentLimits.PAUSES)
                .noneMatch(line -> line.startsWith("maxmemory-policy"));
    }

    @Test
    void aPrimaryWithAReplicaAofAndAnEvictingPolicyIsReportedWithTheLimitsOfItsAcknowledgement() throws Exception {
        RedisServer primary = server("--appendonly", "yes", "--save", "", "--maxmemory-policy", "volatile-lru");
        RedisServer replica = server("--replicaof", primary.host(), Integer.toString(primary.port()));
        awaitReplicas(primary, 1);
        LettuceConnectionFactory factory = factory(primary, null, null);

        DeploymentReport auto = DeploymentReports.redis("lockRegistry", factory, "auto");
        DeploymentReport none = DeploymentReports.redis("lockRegistry", factory, "0");
        DeploymentReport one = DeploymentReports.redis("lockRegistry", factory, "1");

        assertThat(auto.replicas()).isEqualTo(1);
        assertThat(auto.persistence()).isEqualTo("AOF");
        assertThat(auto.evictionPolicy()).isEqualTo("volatile-lru");
        assertThat(auto.acknowledgement()).isEqualTo("the replicas online (acks=auto)");
        assertThat(auto.cannotPromise()).anyMatch(line -> line.startsWith("a replica silent for about twelve"))
                .anyMatch(line -> line.startsWith("maxmemory-policy volatile-lru can evict held locks"))
                .noneMatch(line -> line.startsWith("no persistence"));
        assertThat(none.cannotPromise()).anyMatch(line -> line.startsWith("acknowledgement is off (acks=0)"));
        assertThat(one.acknowledgement()).isEqualTo("1 replica(s) (acks=1)");
        assertThat(one.cannotPromise()).anyMatch(line -> line.startsWith("locking fails while fewer than 1"));
        assertThat(replica.isRunning()).isTrue();
    }

    @Test
    void whatAnAclRefusesIsReportedUnknownSaidWhyAndCountedAsALimit() {
        RedisServer server = server("--save", "", "--appendonly", "no");
        server.command("ACL", "SETUSER", "limited", "on", ">secret", "~*", "&*", "+@all", "-info", "-config");

        DeploymentReport report = DeploymentReports.redis("lockRegistry", factory(server, "limited", "secret"),
                "auto");

        assertThat(report.version()).isEqualTo(DeploymentReport.UNKNOWN);
        assertThat(report.persistence()).isEqualTo(DeploymentReport.UNKNOWN);
        assertThat(report.unreadable()).anyMatch(line -> line.startsWith("INFO server: ") && line.contains("NOPERM"))
                .anyMatch(line -> line.startsWith("CONFIG GET save: "));
        assertThat(report.cannotPromise()).anyMatch(line -> line.startsWith("persistence unknown"))
                .anyMatch(line -> line.startsWith("maxmemory-policy unknown"));
        assertThat(report.describe()).contains("  not read: INFO server: ");
    }

    @Test
    void aServerThatDoesNotAnswerIsReportedAsSuchWithoutFailing() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        LettuceConnectionFactory factory = factory("127.0.0.1", closed, null, null);

        DeploymentReport report = DeploymentReports.redis("lockRegistry", factory, "auto");

        assertThat(report.unreadable()).singleElement().asString().startsWith("Redis could not be reached: ");
        assertThat(report.version()).isEqualTo(DeploymentReport.UNKNOWN);
    }

    @Test
    void anApplicationLogsEachRegistrysReportOnceWhenReadyAndTheEndpointShowsIt(CapturedOutput output) {
        RedisServer server = server("--save", "", "--appendonly", "no");
        ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
                .web(WebApplicationType.NONE)
                .properties("spring.data.redis.port=" + server.port(), "spring.main.banner-mode=off").run();
        started.push(context);

        String log = output.toString();
        assertThat(log).containsOnlyOnce("distlock registry 'lockRegistry' on redis localhost:" + server.port()
                + ": server " + info(server, "server", "redis_version") + ", standalone, 0 replica(s) connected");
        assertThat(log).contains("  cannot promise: no persistence: a restart of Redis forgets every lock");
        DistlocksEndpoint endpoint = new DistlocksEndpoint(Map.of("lockRegistry",
                context.getBean(LockRegistry.class)), context.getBean(DeploymentReports.class));
        List<DeploymentReport> deployments = endpoint.locks().deployments();
        assertThat(deployments).singleElement().satisfies(report -> {
            assertThat(report.registry()).isEqualTo("lockRegistry");
            assertThat(report.persistence()).isEqualTo("none");
        });
    }

    private RedisServer server(String... args) {
        RedisServer server = RedisServer.builder().args(args).start();
        started.push(server);
        return server;
    }

    private LettuceConnectionFactory factory(RedisServer server, String username, String password) {
        return factory(server.host(), server.port(), username, password);
    }

    private LettuceConnectionFactory factory(String host, int port, String username, String password) {
        RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(host, port);
        configuration.setUsername(username);
        if (password != null) {
            configuration.setPassword(password);
        }
        LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration,
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(5)).build());
        factory.afterPropertiesSet();
        factory.start();
        started.push(factory::destroy);
        return factory;
    }

    private static String info(RedisServer server, String section, String key) {
        for (String line : server.command("INFO", section).toString().split("\r?\n")) {
            if (line.startsWith(key + ":")) {
                return line.substring(key.length() + 1).trim();
            }
        }
        throw new AssertionError("no " + key + " in INFO " + section);
    }

    private static void awaitReplicas(RedisServer primary, int replicas) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (Integer.parseInt(info(primary, "replication", "connected_slaves")) < replicas) {
            assertThat(System.nanoTime() - deadline).as("replicas connected within 30 s").isNegative();
            TimeUnit.MILLISECONDS.sleep(50); // the replica's link comes up on its own: nothing to await but INFO
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
    }
}
