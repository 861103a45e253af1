package dev.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.spi.StoreFailure;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.cluster.PartitionSelectorException;
import java.net.SocketException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/** Which failures the Redis store calls transient (worth another try within the caller's wait). */
class RedisTransientErrorsTest {

    private final RedisLockStore store = new RedisLockStore(null, new RedisKeys("distlock"),
            new GrantInbox(new RedisMessageListenerContainer(), false, "distlock:granted:test", () -> true), 1000);

    @ParameterizedTest
    @ValueSource(strings = {"TRYAGAIN Multiple keys request during rehashing of slot", "MOVED 3999 127.0.0.1:6381",
            "ASK 3999 127.0.0.1:6381", "CLUSTERDOWN The cluster is down", "MASTERDOWN Link with MASTER is down",
            "LOADING Redis is loading the dataset in memory", "READONLY You can't write against a read only replica.",
            "NOREPLICAS Not enough good replicas to write.", "BUSY Redis is busy running a script."})
    void redisRepliesThatMeanTryAgainSoonAreTransientWhateverTheClientWrapsThemIn(String reply) {
        assertThat(store.classify(new RedisSystemException("Error in execution",
                new RedisCommandExecutionException(reply))).isTransient()).as(reply).isTrue();
        assertThat(store.classify(new RedisSystemException("Error in execution", new JedisDataException(reply))).isTransient())
                .as(reply).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TRYAGAIN Multiple keys request during rehashing of slot", "MOVED 3999 127.0.0.1:6381",
            "CLUSTERDOWN The cluster is down", "LOADING Redis is loading the dataset in memory"})
    void repliesThatRefuseACommandWithoutRunningItAreRefusals(String reply) {
        assertThat(store.classify(new RedisSystemException("Error in execution",
                new RedisCommandExecutionException(reply)))).as(reply).isEqualTo(StoreFailure.REFUSED);
    }

    /** Seen on CI in a cluster failover: the client knew no primary for the slot for a moment, and sent nothing. */
    @Test
    void aCommandTheClusterClientHadNoNodeForIsARefusal() {
        assertThat(store.classify(new RedisSystemException("Error in execution",
                new PartitionSelectorException("Cannot determine a partition for slot 2906.", null))))
                .isEqualTo(StoreFailure.REFUSED);
    }

    @Test
    void tooFewReplicasLostConnectionsAndTimeoutsLeaveTheCommandInDoubt() {
        assertThat(store.classify(new RedisSystemException("Error in execution",
                new RedisCommandExecutionException("NOREPLICAS Not enough good replicas to write."))))
                .isEqualTo(StoreFailure.IN_DOUBT);
        assertThat(store.classify(new QueryTimeoutException("Redis command timed out",
                new RedisCommandTimeoutException("Command timed out after 1 second(s)"))))
                .isEqualTo(StoreFailure.IN_DOUBT);
        assertThat(store.classify(new IllegalStateException("x", new SocketException("Connection reset"))))
                .isEqualTo(StoreFailure.IN_DOUBT);
    }

    @Test
    void lostConnectionsAndTimeoutsAreTransient() {
        assertThat(store.classify(new RedisConnectionFailureException("Unable to connect",
                new RedisConnectionException("Connection refused"))).isTransient()).isTrue();
        assertThat(store.classify(new QueryTimeoutException("Redis command timed out",
                new RedisCommandTimeoutException("Command timed out after 1 second(s)"))).isTransient()).isTrue();
        assertThat(store.classify(new RedisConnectionFailureException("x", new JedisConnectionException("x"))).isTransient())
                .isTrue();
        assertThat(store.classify(new IllegalStateException("x", new SocketException("Connection reset"))).isTransient())
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"NOPERM this user has no permissions to run the 'evalsha' command",
            "WRONGPASS invalid username-password pair", "OOM command not allowed when used memory > 'maxmemory'.",
            "WRONGTYPE Operation against a key holding the wrong kind of value", "ERR syntax error",
            "NOSCRIPT No matching script."})
    void refusalsAreNotTransient(String reply) {
        assertThat(store.classify(new RedisSystemException("Error in execution",
                new RedisCommandExecutionException(reply))).isTransient()).as(reply).isFalse();
    }
}
