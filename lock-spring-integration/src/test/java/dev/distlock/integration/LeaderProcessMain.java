package dev.distlock.integration;

import dev.distlock.redis.RedisLockRegistry;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import dev.distlock.core.LockLostException;
import dev.distlock.election.LeaderElection;
import dev.distlock.election.LeaderListener;
import dev.distlock.election.LeaderTerm;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

/**
 * A process taking part in a leader election on distlock: Spring Integration's {@code LockRegistryLeaderInitiator}
 * on {@link DistlockIntegrationLockRegistry} on Redis, distlock's initiator for Spring Integration's candidates, or
 * distlock's own {@link LeaderElection}. While leader it
 * writes its fencing token (the term's epoch) every 20 ms to a register in Redis that refuses a token older than the
 * last one it took (the oracle of who leads). It reports {@code @ granted <token> <nanoTime>}, {@code @ revoked
 * <nanoTime>} and {@code @ refused <token>} (a write of a leader that was not one any more); {@code nanoTime} is the
 * machine's monotonic clock, which all its processes share.
 *
 * <p>Arguments: the Redis port, the lease in ms, a {@link LeaseMode} for Spring Integration's initiator (with
 * {@code EXPIRING} the leader keeps the lock by acquiring it again every heart beat, as with Spring Integration's
 * {@code RedisLockRegistry}), {@code INITIATOR} for {@link DistlockLeaderInitiator} or {@code ELECTION} for distlock's
 * {@link LeaderElection}, and optionally a Redis user and password.
 */
public final class LeaderProcessMain {

    static final String ROLE = "leader";
    static final String REGISTER = "leader-register";
    /** distlock's initiator for Spring Integration's candidates, {@link DistlockLeaderInitiator}. */
    static final String INITIATOR = "INITIATOR";
    private static final RedisScript<Long> FENCED_WRITE = RedisScript.of("""
            local last = tonumber(redis.call('GET', KEYS[1]) or '0')
            if tonumber(ARGV[1]) < last then return 0 end
            redis.call('SET', KEYS[1], ARGV[1])
            return 1""", Long.class);

    private LeaderProcessMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration("127.0.0.1", Integer.parseInt(args[0]));
        if (args.length > 4) {
            server.setUsername(args[3]);
            server.setPassword(args[4]);
        }
        LettuceConnectionFactory factory = new LettuceConnectionFactory(server,
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
        factory.afterPropertiesSet();
        factory.start();
        StringRedisTemplate redis = new StringRedisTemplate(factory);
        RedisLockRegistry distlock = RedisLockRegistry.builder(factory).build();
        Duration lease = Duration.ofMillis(Long.parseLong(args[1]));
        AtomicLong leading = new AtomicLong(); // the token of the current leadership, 0 when not leading
        Runnable stand;
        if (args[2].equals("ELECTION")) {
            LeaderElection election = LeaderElection.builder(distlock, ROLE).lease(lease)
                    .listener(new LeaderListener() {
                        @Override
                        public void granted(LeaderTerm term) {
                            leading.set(term.epoch());
                            out.println("@ granted " + term.epoch() + " " + System.nanoTime());
                        }

                        @Override
                        public void revoked(LeaderTerm term, LockLostException loss) {
                            leading.set(0);
                            out.println("@ revoked " + System.nanoTime());
                        }
                    }).build();
            stand = election::start;
        } else {
            stand = () -> startInitiator(distlock, lease, args[2], leading, out);
        }
        Thread writer = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                long token = leading.get();
                if (token > 0) {
                    try {
                        Long taken = redis.execute(FENCED_WRITE, List.of(REGISTER), Long.toString(token));
                        if (taken == null || taken == 0) {
                            out.println("@ refused " + token);
                        }
                    } catch (RuntimeException refused) {
                        // Redis refused the write (its user lost its permissions): nothing written
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
        out.println("@ ready");
        stand.run();
        new CountDownLatch(1).await(); // until killed
    }

    private static void startInitiator(RedisLockRegistry distlock, Duration lease, String mode, AtomicLong leading,
            PrintStream out) {
        DistlockIntegrationLockRegistry registry = mode.equals(INITIATOR) ? null
                : new DistlockIntegrationLockRegistry(distlock, lease, LeaseMode.valueOf(mode));
        DistlockLeaderInitiator[] ours = new DistlockLeaderInitiator[1];
        DefaultCandidate candidate = new DefaultCandidate("process-" + ProcessHandle.current().pid(), ROLE) {
            @Override
            public void onGranted(Context context) {
                // Spring Integration's initiator calls it on the thread that holds the lock: its token is the term's
                long token = registry != null ? registry.obtain(ROLE).fencingToken()
                        : ours[0].term().orElseThrow().epoch();
                leading.set(token);
                out.println("@ granted " + token + " " + System.nanoTime());
            }

            @Override
            public void onRevoked(Context context) {
                leading.set(0);
                out.println("@ revoked " + System.nanoTime());
            }
        };
        if (registry == null) {
            ours[0] = new DistlockLeaderInitiator(distlock, candidate, election -> election.lease(lease));
            ours[0].start();
            return;
        }
        LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(registry, candidate);
        initiator.setHeartBeatMillis(100);
        initiator.setBusyWaitMillis(50);
        initiator.start();
    }
}
