package dev.distlock.topology;

import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.CloseAfterEach;
import dev.distlock.test.Poll;
import dev.distlock.test.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A redis-server and one replica of it on loopback ports, for the replica acknowledgement tests, and what those
 * tests do with them: registries through a Lettuce factory without a pool (Boot's default), and reading a lock key.
 */
final class PrimaryAndReplica implements AutoCloseable {

    final RedisServer primary;
    final RedisServer replica;

    private PrimaryAndReplica(RedisServer primary, RedisServer replica) {
        this.primary = primary;
        this.replica = replica;
    }

    /** Starts both and waits until the replica is in sync. */
    static PrimaryAndReplica start() {
        RedisServer primary = RedisServer.start();
        RedisServer replica = RedisServer.builder().args("--replicaof", primary.host(), String.valueOf(primary.port()))
                .start();
        PrimaryAndReplica servers = new PrimaryAndReplica(primary, replica);
        servers.awaitReplicaOnline();
        return servers;
    }

    /** Waits until the primary lists the replica online and heard from it within the last second. */
    void awaitReplicaOnline() {
        Poll.until("replica online", Duration.ofSeconds(30), () -> {
            String replication = (String) primary.command("INFO", "replication");
            return replication.contains("state=online") && replication.contains("lag=0") ? null : replication;
        });
    }

    /** A registry on {@code server}, closed (with its factory) after the test. */
    static RedisLockRegistry registry(CloseAfterEach closeables, RedisServer server,
            UnaryOperator<RedisLockRegistry.Builder> settings) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(server.host(), server.port()));
        factory.afterPropertiesSet();
        factory.start();
        closeables.push(factory::destroy);
        RedisLockRegistry registry = settings.apply(RedisLockRegistry.builder(factory)).build();
        closeables.push(registry);
        return registry;
    }

    /** Whether a lock key's value (from {@code GET}) is no hold: gone, or freed (kept with its last token). */
    static boolean isFree(Object value) {
        return value == null || ((String) value).startsWith("~ ");
    }

    @Override
    public void close() {
        RedisServer.killAll(List.of(replica, primary));
    }
}
