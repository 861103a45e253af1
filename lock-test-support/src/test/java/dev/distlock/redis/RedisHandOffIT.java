package dev.distlock.redis;

import static dev.distlock.redis.RedisProbes.PATIENCE;
import static dev.distlock.redis.RedisProbes.awaitUntil;
import static dev.distlock.redis.RedisProbes.commandCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.FencedLock;
import dev.distlock.test.CloseAfterEach;
import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Hand-offs in Redis (their order is part of the contract): the new owner learns of it from the notice
 * alone, and a waiter that misses the notice or dies does not block the lock for long. Each registry stands
 * for a process.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisHandOffIT {

    /** The second server only carries the pub/sub of a waiter that must not hear the notices. */
    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.servers(2);

    private static final String QUEUE = "distlock:{job}:queue";

    @RegisterExtension
    final CloseAfterEach closeables = new CloseAfterEach();

    @Test
    void theWaiterThatIsHandedTheLockStartsWithoutAskingRedis() throws Exception {
        FencedLock holder = registry(UnaryOperator.identity()).obtain("job");
        // polls every 30 s: only the notice can wake it in time
        FencedLock waiter = registry(builder -> builder.maxPollInterval(Duration.ofSeconds(30))).obtain("job");
        holder.lock();
        // a first, short wait makes the waiter's registry subscribe its channel (a wait that ended before the
        // waiter slept, on a busy machine, subscribes nothing: short waits again until it has)
        awaitUntil(() -> !waitedShortly(waiter)
                && !((List<?>) redis.server().command("PUBSUB", "CHANNELS", "*")).isEmpty());
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> lockAndRecord(waiter, new ArrayList<>()));
        awaitUntil(() -> queueLength() == 1);
        redis.server().command("CONFIG", "RESETSTAT");

        holder.unlock();

        assertThat(waiting.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        // the holder's release (which hands over with a claim lease) and the waiter's release, with perhaps the
        // waiter's confirmation of its full lease between them (sent in the background, skipped if the hold
        // ended first): no acquire, whose SET NX would be a third SET besides the hand-off's and the freeing one
        assertThat(commandCalls(redis.server(), "fcall")).isBetween(2L, 3L);
        assertThat(commandCalls(redis.server(), "set")).isEqualTo(2);
        assertThat(commandCalls(redis.server(), "publish")).isEqualTo(1);
    }

    @Test
    void aWaiterThatMissesTheNoticeFindsTheLockHandedToItAtItsNextPoll() throws Exception {
        FencedLock holder = registry(UnaryOperator.identity()).obtain("job");
        // this waiter listens on the other server, so it never hears the hand-off
        RedisMessageListenerContainer deaf = container(connectionFactory(1));
        FencedLock waiter = registry(builder -> builder.listenerContainer(deaf)
                .maxPollInterval(Duration.ofMillis(200))).obtain("job");
        holder.lock();
        long holderFence = holder.fencingToken();
        List<Long> fences = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> lockAndRecord(waiter, fences));
        awaitUntil(() -> queueLength() == 1);

        holder.unlock();

        assertThat(waiting.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(fences).singleElement().satisfies(fence -> assertThat(fence).isGreaterThan(holderFence));
    }

    @Test
    void aQueuedWaiterThatDiedIsHandedTheLockForItsShortClaimOnlyNotItsLease() throws Exception {
        FencedLock holder = registry(UnaryOperator.identity()).obtain("job");
        FencedLock next = registry(UnaryOperator.identity()).obtain("job");
        holder.lock();
        // what a process leaves behind when it dies while queued for a 60 s lease with a 300 ms waiter timeout:
        // its entry is live for 300 ms after its last try, and a hand-off to it lasts 300 ms unless confirmed
        long serverMillis = serverMillis();
        markQueued();
        redis.server().command("RPUSH", QUEUE, "ghost");
        redis.server().command("HSET", "distlock:{job}:waiters", "ghost",
                (serverMillis + 300) + " 60000 300 distlock:granted:gone");

        holder.unlock();

        assertThat((String) redis.server().command("GET", "distlock:{job}")).startsWith("ghost ");
        assertThat((Long) redis.server().command("PTTL", "distlock:{job}")).isLessThanOrEqualTo(300);
        assertThat(next.tryLock(PATIENCE)).as("acquired long before the ghost's 60 s lease").isTrue();
        next.unlock();
    }

    @Test
    void aQueuedWaiterWhoseEntryWentStaleIsSkipped() throws Exception {
        FencedLock holder = registry(UnaryOperator.identity()).obtain("job");
        holder.lock();
        long serverMillis = serverMillis();
        markQueued();
        redis.server().command("RPUSH", QUEUE, "ghost");
        redis.server().command("HSET", "distlock:{job}:waiters", "ghost",
                (serverMillis - 1) + " 60000 300 distlock:granted:gone");

        holder.unlock();

        assertThat((String) redis.server().command("GET", "distlock:{job}")).as("freed").startsWith("~ ");
        assertThat(queueLength()).isZero();
    }

    private static long serverMillis() {
        List<?> time = (List<?>) redis.server().command("TIME");
        return Long.parseLong((String) time.get(0)) * 1000 + Long.parseLong((String) time.get(1)) / 1000;
    }

    /**
     * Issue case 12: interrupts during a registry's first waits (while it subscribes its channel, or while
     * the interrupted callers clean up) leave its hand-off channel working: a waiter that polls only every
     * 30 s still starts at once when the lock is handed to it.
     */
    @Test
    void interruptsDuringARegistrysFirstWaitsLeaveItsHandOffChannelWorking() throws Exception {
        FencedLock holder = registry(UnaryOperator.identity()).obtain("job");
        FencedLock waiter = registry(builder -> builder.maxPollInterval(Duration.ofSeconds(30))).obtain("job");
        holder.lock();
        for (int delayMillis : new int[] {0, 1, 2, 5, 10, 20}) {
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread interrupted = new Thread(() -> {
                try {
                    outcome.complete(waiter.tryLock(Duration.ofMinutes(1)) ? null : new AssertionError("timed out"));
                } catch (Throwable failure) {
                    outcome.complete(failure);
                }
            });
            interrupted.start();
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(delayMillis));
            interrupted.interrupt();
            assertThat(outcome.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isInstanceOf(InterruptedException.class);
        }
        awaitUntil(() -> queueLength() == 0);
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> lockAndRecord(waiter, new ArrayList<>()));
        awaitUntil(() -> queueLength() == 1);

        holder.unlock();

        assertThat(waiting.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).as("heard the hand-off").isTrue();
    }

    private static boolean lockAndRecord(FencedLock lock, List<Long> fences) {
        try {
            if (!lock.tryLock(PATIENCE.multipliedBy(3))) {
                return false;
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
        try {
            fences.add(lock.fencingToken());
            return true;
        } finally {
            lock.unlock();
        }
    }

    private RedisLockRegistry registry(UnaryOperator<RedisLockRegistry.Builder> settings) {
        RedisLockRegistry registry = settings.apply(RedisLockRegistry.builder(connectionFactory(0))).build();
        closeables.push(registry);
        return registry;
    }

    private LettuceConnectionFactory connectionFactory(int server) {
        LettuceConnectionFactory factory = RedisConnections.lettuce(redis.servers().get(server), Duration.ofSeconds(5));
        closeables.push(factory::destroy);
        return factory;
    }

    private RedisMessageListenerContainer container(LettuceConnectionFactory factory) {
        RedisMessageListenerContainer container = new RedisMessageListenerContainer();
        container.setConnectionFactory(factory);
        container.afterPropertiesSet();
        container.start();
        closeables.push(container::destroy);
        return container;
    }

    private static long queueLength() {
        return (Long) redis.server().command("LLEN", QUEUE);
    }


    /** Marks the held lock as having waiters queued (its value's third part), as a waiter's first try does. */
    private static void markQueued() {
        String[] parts = ((String) redis.server().command("GET", "distlock:{job}")).split(" ");
        parts[2] = "q";
        redis.server().command("SET", "distlock:{job}", String.join(" ", parts), "KEEPTTL");
    }

    /** A short wait of {@code lock}'s, which another process holds: true if it got the lock (it must not). */
    private static boolean waitedShortly(FencedLock lock) {
        try {
            return lock.tryLock(Duration.ofMillis(50));
        } catch (InterruptedException interrupt) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupt);
        }
    }
}
