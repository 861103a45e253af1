package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.ReadFrom;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

class ConnectionAdviceTests {

    private static final Duration LEASE = Duration.ofSeconds(30);

    @Test
    void aCommandTimeoutWellBelowTheLeaseAndReadsFromThePrimaryNeedNoAdvice() {
        assertThat(ConnectionAdvice.adviceFor(lettuce(LettuceClientConfiguration.builder()
                .commandTimeout(Duration.ofSeconds(2)).build()), LEASE)).isEmpty();
    }

    @Test
    void aCommandTimeoutLongerThanAThirdOfTheLeaseIsCalledOutWithTheProperty() {
        assertThat(ConnectionAdvice.adviceFor(lettuce(LettuceClientConfiguration.builder()
                .commandTimeout(Duration.ofSeconds(60)).build()), LEASE)).singleElement().asString()
                .contains("spring.data.redis.timeout").contains("PT1M").contains("PT10S");
        JedisConnectionFactory jedis = new JedisConnectionFactory(new RedisStandaloneConfiguration(),
                JedisClientConfiguration.builder().readTimeout(Duration.ofSeconds(60)).build());
        assertThat(ConnectionAdvice.adviceFor(jedis, LEASE)).singleElement().asString()
                .contains("spring.data.redis.timeout");
    }

    @Test
    void readsFromReplicasAreCalledOut() {
        assertThat(ConnectionAdvice.adviceFor(lettuce(LettuceClientConfiguration.builder()
                .commandTimeout(Duration.ofSeconds(2)).readFrom(ReadFrom.REPLICA_PREFERRED).build()), LEASE))
                .singleElement().asString().contains("read-from");
    }

    @Test
    void aClusterClientThatNeverRefreshesItsTopologyIsCalledOutAndOneThatDoesIsNot() {
        LettuceClientConfiguration noRefresh = LettuceClientConfiguration.builder()
                .commandTimeout(Duration.ofSeconds(2)).build();
        LettuceClientConfiguration refresh = LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2))
                .clientOptions(ClusterClientOptions.builder().topologyRefreshOptions(ClusterTopologyRefreshOptions
                        .builder().enableAllAdaptiveRefreshTriggers().build()).build())
                .build();

        List<String> advice = ConnectionAdvice.adviceFor(cluster(noRefresh), LEASE);

        assertThat(advice).singleElement().asString().contains("spring.data.redis.lettuce.cluster.refresh.adaptive");
        assertThat(ConnectionAdvice.adviceFor(cluster(refresh), LEASE)).isEmpty();
    }

    private static LettuceConnectionFactory lettuce(LettuceClientConfiguration configuration) {
        return new LettuceConnectionFactory(new RedisStandaloneConfiguration(), configuration);
    }

    private static LettuceConnectionFactory cluster(LettuceClientConfiguration configuration) {
        return new LettuceConnectionFactory(new RedisClusterConfiguration(List.of("127.0.0.1:1")), configuration);
    }
}
