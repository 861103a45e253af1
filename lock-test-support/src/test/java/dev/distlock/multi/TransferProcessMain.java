package dev.distlock.multi;

import dev.distlock.redis.RedisLockRegistry;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A process running {@link Transfers} on Redis, the balances kept in Redis as plain strings, then printing
 * {@code @ done <transfers> <timeouts> <errors> [first error]} and exiting.
 *
 * <p>Arguments: {@code standalone} or {@code cluster}; the servers ({@code host:port}, comma-separated); threads;
 * seconds.
 */
public final class TransferProcessMain {

    private TransferProcessMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        List<String> servers = List.of(args[1].split(","));
        LettuceClientConfiguration client = LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(5))
                .build();
        LettuceConnectionFactory factory;
        if ("cluster".equals(args[0])) {
            factory = new LettuceConnectionFactory(new RedisClusterConfiguration(servers), client);
        } else {
            String[] hostPort = servers.get(0).split(":");
            factory = new LettuceConnectionFactory(
                    new RedisStandaloneConfiguration(hostPort[0], Integer.parseInt(hostPort[1])), client);
        }
        factory.afterPropertiesSet();
        factory.start();
        StringRedisTemplate redis = new StringRedisTemplate(factory);
        Transfers.Balances balances = new Transfers.Balances() {
            @Override
            public long read(String account) {
                return Long.parseLong(redis.opsForValue().get(account));
            }

            @Override
            public void write(String account, long balance) {
                redis.opsForValue().set(account, Long.toString(balance));
            }
        };
        Transfers.Outcome outcome;
        try (RedisLockRegistry registry = RedisLockRegistry.builder(factory).build()) {
            outcome = Transfers.run(registry, balances, Integer.parseInt(args[2]),
                    Duration.ofSeconds(Long.parseLong(args[3])));
        }
        out.println("@ done " + outcome);
        factory.destroy();
        System.exit(0);
    }
}
