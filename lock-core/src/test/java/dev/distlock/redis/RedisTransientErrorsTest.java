package dev.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
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
            new GrantInbox(new RedisMessageListenerContainer(), false, "distlock:granted:test"), 1000);

    @ParameterizedTest
    @ValueSource(strings = {"TRYAGAIN Multiple keys request during rehashing of slot", "MOVED 3999 127.0.0.1:6381",
            "ASK 3999 127.0.0.1:6381", "CLUSTERDOWN The cluster is down", "MASTERDOWN Link with MASTER is down",
            "LOADING Redis is loading the dataset in memory", "READONLY You can't write against a read only replica.",
            "NOREPLICAS Not enough good replicas to write.", "BUSY Redis is busy running a script."})
    void redisRepliesThatMeanTryAgainSoonAreTransientWhateverTheClientWrapsThemIn(String reply) {
        assertThat(store.isTransient(new RedisSystemException("Error in execution",
                new RedisCommandExecutionException(reply)))).as(reply).isTrue();
        assertThat(store.isTransient(new RedisSystemException("Error in execution", new JedisDataException(reply))))
                .as(reply).isTrue();
    }

    @Test
    void lostConnectionsAndTimeoutsAreTransient() {
        assertThat(store.isTransient(new RedisConnectionFailureException("Unable to connect",
                new RedisConnectionException("Connection refused")))).isTrue();
        assertThat(store.isTransient(new QueryTimeoutException("Redis command timed out",
                new RedisCommandTimeoutException("Command timed out after 1 second(s)")))).isTrue();
        assertThat(store.isTransient(new RedisConnectionFailureException("x", new JedisConnectionException("x"))))
                .isTrue();
        assertThat(store.isTransient(new IllegalStateException("x", new SocketException("Connection reset"))))
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"NOPERM this user has no permissions to run the 'evalsha' command",
            "WRONGPASS invalid username-password pair", "OOM command not allowed when used memory > 'maxmemory'.",
            "WRONGTYPE Operation against a key holding the wrong kind of value", "ERR syntax error",
            "NOSCRIPT No matching script."})
    void refusalsAreNotTransient(String reply) {
        assertThat(store.isTransient(new RedisSystemException("Error in execution",
                new RedisCommandExecutionException(reply)))).as(reply).isFalse();
    }
}
