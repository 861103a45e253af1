package dev.distlock.integration;

import dev.distlock.redis.RedisLockRegistry;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

/**
 * A process taking part in Spring Integration's leader election on distlock: {@code LockRegistryLeaderInitiator} on
 * {@link DistlockIntegrationLockRegistry} on Redis. While leader it writes its fencing token every 20 ms to a
 * register in Redis that refuses a token older than the last one it took (the oracle of who leads). It reports
 * {@code @ granted <token>}, {@code @ revoked} and {@code @ refused <token>} (a write of a leader that was not one
 * any more).
 *
 * <p>Arguments: the Redis port, the lease in ms, the {@link LeaseMode} (with {@code EXPIRING} the leader keeps the
 * lock by acquiring it again every heart beat, as with Spring Integration's {@code RedisLockRegistry}).
 */
public final class LeaderProcessMain {

    static final String ROLE = "leader";
    static final String REGISTER = "leader-register";
    private static final RedisScript<Long> FENCED_WRITE = RedisScript.of("""
            local last = tonumber(redis.call('GET', KEYS[1]) or '0')
            if tonumber(ARGV[1]) < last then return 0 end
            redis.call('SET', KEYS[1], ARGV[1])
            return 1""", Long.class);

    private LeaderProcessMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", Integer.parseInt(args[0])),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
        factory.afterPropertiesSet();
        factory.start();
        StringRedisTemplate redis = new StringRedisTemplate(factory);
        RedisLockRegistry distlock = RedisLockRegistry.builder(factory).build();
        DistlockIntegrationLockRegistry registry = new DistlockIntegrationLockRegistry(distlock,
                Duration.ofMillis(Long.parseLong(args[1])), LeaseMode.valueOf(args[2]));
        AtomicLong leading = new AtomicLong(); // the token of the current leadership, 0 when not leading
        DefaultCandidate candidate = new DefaultCandidate("process-" + ProcessHandle.current().pid(), ROLE) {
            @Override
            public void onGranted(Context context) {
                // called on the thread that holds the lock: its token is this leadership's
                long token = registry.obtain(ROLE).fencingToken();
                leading.set(token);
                out.println("@ granted " + token);
            }

            @Override
            public void onRevoked(Context context) {
                leading.set(0);
                out.println("@ revoked");
            }
        };
        LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(registry, candidate);
        initiator.setHeartBeatMillis(100);
        initiator.setBusyWaitMillis(50);
        Thread writer = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                long token = leading.get();
                if (token > 0) {
                    Long taken = redis.execute(FENCED_WRITE, List.of(REGISTER), Long.toString(token));
                    if (taken == null || taken == 0) {
                        out.println("@ refused " + token);
                    }
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }, "leader-writes");
        writer.setDaemon(true);
        writer.start();
        initiator.start();
        out.println("@ ready");
        new CountDownLatch(1).await(); // until killed
    }
}
