package dev.distlock.fault;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockEvent;
import dev.distlock.core.LockListener;
import dev.distlock.redis.RedisLockRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A process that uses one lock, driven line by line on stdin by a test ({@link LockProcess}), reporting on
 * stdout. Commands run one after another on one thread, the lock's owner:
 * <ul>
 *   <li>{@code lock <wait ms>}: {@code acquired <fencing token>}, {@code timeout} or {@code error <message>};</li>
 *   <li>{@code write}: {@code write <fencing token>} if the lock is held now (the test's oracle decides
 *   whether the protected resource takes it), else {@code not-held};</li>
 *   <li>{@code unlock}: {@code released}, {@code lost <message>} or {@code error <message>};</li>
 * </ul>
 * and losses are reported when the registry finds them: {@code event lost <fencing token>}. Each of these
 * lines starts with {@value #ANSWER}, to tell it from the process's logging.
 *
 * <p>Arguments: Redis port, lock name, lease in ms, {@code renewed} or {@code fixed}, poll interval in ms, and
 * optionally what the process claims instead of the lock: a number of permits (it uses one permit of the semaphore of
 * that name, {@link dev.distlock.core.LeasedSemaphore#asLock()}), or {@code read} or {@code write} (that side of the
 * name's read-write lock).
 */
public final class LockProcessMain {

    /** What starts a line meant for the test; anything else on stdout (logging) is not. */
    static final String ANSWER = "@ ";

    private LockProcessMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", Integer.parseInt(args[0])),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
        factory.afterPropertiesSet();
        factory.start();
        Duration lease = Duration.ofMillis(Long.parseLong(args[2]));
        RedisLockRegistry registry = RedisLockRegistry.builder(factory)
                .maxPollInterval(Duration.ofMillis(Long.parseLong(args[4])))
                .listener(new LockListener() {
                    @Override
                    public void onLost(LockEvent event) {
                        out.println(ANSWER + "event lost " + event.fencingToken());
                    }
                })
                .build();
        Lease leased = "renewed".equals(args[3]) ? Lease.renewed(lease) : Lease.fixed(lease);
        FencedLock lock = claimed(registry, args[1], leased, args.length > 5 ? args[5] : "");
        // a running service has its connection and scripts ready: the first call of a cold JVM may take longer
        // than a short lease, and a hold is trusted only from the moment its acquire was sent
        FencedLock warmUp = registry.obtain(args[1] + ":warm-up");
        warmUp.lock();
        warmUp.unlock();
        ExecutorService owner = Executors.newSingleThreadExecutor();
        out.println(ANSWER + "ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] command = line.split(" ");
            owner.execute(() -> out.println(ANSWER + run(lock, command)));
        }
        System.exit(0);
    }

    private static FencedLock claimed(RedisLockRegistry registry, String name, Lease lease, String claim) {
        return switch (claim) {
            case "" -> registry.obtain(name, lease);
            case "read" -> registry.readWriteLock(name, lease, null).readLock();
            case "write" -> registry.readWriteLock(name, lease, null).writeLock();
            default -> registry.semaphore(name, Integer.parseInt(claim), lease, null).asLock();
        };
    }

    private static String run(FencedLock lock, String[] command) {
        try {
            switch (command[0]) {
                case "lock":
                    return lock.tryLock(Duration.ofMillis(Long.parseLong(command[1])))
                            ? "acquired " + lock.fencingToken()
                            : "timeout";
                case "write":
                    return lock.isHeldByCurrentThread() ? "write " + lock.fencingToken() : "not-held";
                case "unlock":
                    lock.unlock();
                    return "released";
                default:
                    return "error unknown command " + command[0];
            }
        } catch (dev.distlock.core.LockLostException lost) {
            return "lost " + lost.getMessage();
        } catch (Exception failure) {
            return "error " + failure;
        }
    }
}
