package dev.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.distlock.core.spi.StoreFailure;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.cluster.PartitionSelectorException;
import java.net.SocketException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * What each failure of a Redis call means to the engine ({@link RedisFailures#classify}): refused (it did not run:
 * sent again, a try with a new token), in doubt (it may have run: a new token, the old one cleaned up) or permanent
 * (the caller hears it at once). Each row is a reply of Redis or a failure of the client, wrapped as Spring Data and
 * the client wrap it.
 */
class RedisFailuresTest {

    private final RedisLockStore store = new RedisLockStore(null, new RedisKeys("distlock"),
            new GrantInbox(new RedisMessageListenerContainer(), false, "distlock:granted:test", () -> true), 1000);

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void eachFailureMeansWhatRedisOrTheClientSaid(String failure, RuntimeException chain, StoreFailure expected) {
        assertThat(store.capabilities().failures().classify(chain)).isEqualTo(expected);
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                // Redis did not run the command, for a moment
                lettuce("TRYAGAIN Multiple keys request during rehashing of slot", StoreFailure.REFUSED),
                jedis("TRYAGAIN Multiple keys request during rehashing of slot", StoreFailure.REFUSED),
                lettuce("MOVED 3999 127.0.0.1:6381", StoreFailure.REFUSED),
                lettuce("ASK 3999 127.0.0.1:6381", StoreFailure.REFUSED),
                lettuce("CLUSTERDOWN The cluster is down", StoreFailure.REFUSED),
                jedis("CLUSTERDOWN Hash slot not served", StoreFailure.REFUSED),
                lettuce("MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
                        StoreFailure.REFUSED),
                lettuce("LOADING Redis is loading the dataset in memory", StoreFailure.REFUSED),
                lettuce("READONLY You can't write against a read only replica.", StoreFailure.REFUSED),
                jedis("READONLY You can't write against a read only replica.", StoreFailure.REFUSED),
                lettuce("BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.",
                        StoreFailure.REFUSED),
                lettuce("ERR Error running script (call to f_5b9a2c): @user_script:6: @user_script: 6: -READONLY You "
                        + "can't write against a read only replica.", StoreFailure.REFUSED),
                arguments("LOADING at the connection's handshake", handshake("LOADING Redis is loading the dataset"),
                        StoreFailure.REFUSED),
                arguments("ERR max number of clients reached at the handshake",
                        handshake("ERR max number of clients reached"), StoreFailure.REFUSED),
                // the client sent nothing: no node for the slot, no known primary during a Sentinel failover
                arguments("PartitionSelectorException", new RedisSystemException("Error in execution",
                        new PartitionSelectorException("Cannot determine a partition for slot 2906.", null)),
                        StoreFailure.REFUSED),
                arguments("Master is currently unknown", new RedisSystemException("Error in execution",
                        new RedisException("Master is currently unknown: [RedisMasterReplicaNode [redisURI="
                                + "redis://127.0.0.1:6380, role=REPLICA]]")), StoreFailure.REFUSED),

                // the command may have run
                lettuce("NOREPLICAS Not enough good replicas to write.", StoreFailure.IN_DOUBT),
                arguments("distlock's own acknowledgement", new ReplicaAcks.NotReplicatedException(
                        "NOREPLICAS lock 'job' was acquired on the primary, but only 0 of the 1 replicas required "
                                + "acknowledged it within 50ms"), StoreFailure.IN_DOUBT),
                arguments("a command timeout", new QueryTimeoutException("Redis command timed out",
                        new RedisCommandTimeoutException("Command timed out after 1 second(s)")), StoreFailure.IN_DOUBT),
                arguments("a connection reset", new IllegalStateException("x", new SocketException("Connection reset")),
                        StoreFailure.IN_DOUBT),
                arguments("a connection refused", new RedisConnectionFailureException("Unable to connect to Redis",
                        new RedisConnectionException("Connection refused: /127.0.0.1:6379")), StoreFailure.IN_DOUBT),
                arguments("Lettuce's connection closed", new RedisSystemException("Error in execution",
                        new RedisException("Connection closed")), StoreFailure.IN_DOUBT),
                arguments("Jedis's lost connection", new RedisConnectionFailureException("x",
                        new JedisConnectionException("Unexpected end of stream.")), StoreFailure.IN_DOUBT),
                arguments("a command the client cancelled (its connection closed in a failover)",
                        new CompletionException(new CancellationException()), StoreFailure.IN_DOUBT),

                // Redis refuses it for good: the caller hears what it said at once
                arguments("WRONGPASS at Lettuce's handshake",
                        handshake("WRONGPASS invalid username-password pair or user is disabled."),
                        StoreFailure.PERMANENT),
                arguments("WRONGPASS at Jedis's handshake", new InvalidDataAccessApiUsageException(
                        "WRONGPASS invalid username-password pair or user is disabled.", new JedisAccessControlException(
                                "WRONGPASS invalid username-password pair or user is disabled.")), StoreFailure.PERMANENT),
                arguments("WRONGPASS at the handshake of a pooled Jedis connection", new RedisConnectionFailureException(
                        "Cannot get Jedis connection", new JedisConnectionException("Failed to create a connection",
                                new JedisAccessControlException("WRONGPASS invalid username-password pair"))),
                        StoreFailure.PERMANENT),
                arguments("NOAUTH at the handshake", handshake("NOAUTH HELLO must be called with the client already "
                        + "authenticated"), StoreFailure.PERMANENT),
                lettuce("NOAUTH Authentication required.", StoreFailure.PERMANENT),
                lettuce("NOPERM this user has no permissions to run the 'evalsha' command", StoreFailure.PERMANENT),
                jedis("NOPERM this user has no permissions to run the 'evalsha' command", StoreFailure.PERMANENT),
                lettuce("ERR unknown command 'FCALL', with args beginning with: ", StoreFailure.PERMANENT),
                lettuce("ERR syntax error", StoreFailure.PERMANENT),
                lettuce("NOSCRIPT No matching script. Please use EVAL.", StoreFailure.PERMANENT),
                lettuce("OOM command not allowed when used memory > 'maxmemory'.", StoreFailure.PERMANENT),
                lettuce("MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to "
                        + "disk.", StoreFailure.PERMANENT),
                lettuce("WRONGTYPE Operation against a key holding the wrong kind of value", StoreFailure.PERMANENT),
                lettuce("ERR Error running script (call to f_5b9a2c): @user_script:3: @user_script: 3: -WRONGTYPE "
                        + "Operation against a key holding the wrong kind of value", StoreFailure.PERMANENT),
                arguments("a reply of unknown code at the handshake", handshake("NOTYET something new"),
                        StoreFailure.PERMANENT),
                arguments("a bug", new IllegalArgumentException("no such name"), StoreFailure.PERMANENT));
    }

    /** Redis's {@code reply} to a command, through Lettuce and Spring Data. */
    private static Arguments lettuce(String reply, StoreFailure expected) {
        return arguments(reply, new RedisSystemException("Error in execution", new RedisCommandExecutionException(reply)),
                expected);
    }

    /** Redis's {@code reply} to a command, through Jedis and Spring Data. */
    private static Arguments jedis(String reply, StoreFailure expected) {
        return arguments(reply + " (Jedis)", new InvalidDataAccessApiUsageException(reply, new JedisDataException(reply)),
                expected);
    }

    /** Redis's {@code reply} to Lettuce's handshake, reported as a connection that could not be made. */
    private static RuntimeException handshake(String reply) {
        return new RedisConnectionFailureException("Unable to connect to Redis", new RedisConnectionException(
                "Unable to connect to 127.0.0.1/<unresolved>:6379", new RedisCommandExecutionException(reply)));
    }
}
