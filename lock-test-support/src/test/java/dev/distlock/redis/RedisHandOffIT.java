package dev.distlock.redis;

import static dev.distlock.redis.RedisProbes.PATIENCE;
import static dev.distlock.redis.RedisProbes.awaitUntil;
import static dev.distlock.redis.RedisProbes.commandCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.FencedLock;
import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * The queue in Redis: a release hands the lock to the waiter that queued first, the new owner learns it
 * from the notice alone, and waiters that leave, miss the notice or die do not block the lock for long.
 * Each registry stands for a process.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisHandOffIT {

    /** The second server only carries the pub/sub of a waiter that must not hear the notices. */
    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.servers(2);

    private static final String QUEUE = "distlock:{job}:queue";

    /** Closed last-in first-out: registries before their connection factories. */
    private final Deque<AutoCloseable> closeables = new ArrayDeque<>();

    @AfterEach
    void close() throws Exception {
        while (!closeables.isEmpty()) {
            closeables.pop().close();
        }
    }

    @Test
    void waitersOfSeveralProcessesGetTheLockInTheOrderTheyQueued() throws Exception {
        FencedLock holder = registry(UnaryOperator.identity()).obtain("job");
        holder.lock();
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        List<Long> fences = Collections.synchronizedList(new ArrayList<>());
        fences.add(holder.fencingToken());
        List<CompletableFuture<Boolean>> waiters = new ArrayList<>();
        for (String name : List.of("first", "second", "third")) {
            FencedLock lock = registry(UnaryOperator.identity()).obtain("job");
            int queuedBefore = waiters.size();
            waiters.add(CompletableFuture.supplyAsync(() -> lockAndRecord(lock, name, order, fences)));
            awaitUntil(() -> queueLength() == queuedBefore + 1);
        }

        holder.unlock();

        for (CompletableFuture<Boolean> waiter : waiters) {
            assertThat(waiter.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        }
        assertThat(order).containsExactly("first", "second", "third");
        assertThat(fences).isSorted().doesNotHaveDuplicates();
        assertThat(redis.server().command("EXISTS", "distlock:{job}", QUEUE)).isEqualTo(0L);
    }

    @Test
    void theWaiterThatIsHandedTheLockStartsWithoutAskingRedis() throws Exception {
        FencedLock holder = registry(UnaryOperator.identity()).obtain("job");
        // polls every 30 s: only the notice can wake it in time
        FencedLock waiter = registry(builder -> builder.maxPollInterval(Duration.ofSeconds(30))).obtain("job");
        holder.lock();
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> lockAndRecord(waiter, "waiter",
                new ArrayList<>(), new ArrayList<>()));
        awaitUntil(() -> queueLength() == 1);
        redis.server().command("CONFIG", "RESETSTAT");

        holder.unlock();

        assertThat(waiting.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        // the holder's release (which hands over) and the waiter's release: no acquire script in between
        assertThat(commandCalls(redis.server(), "evalsha")).isEqualTo(2);
        assertThat(commandCalls(redis.server(), "publish")).isEqualTo(1);
    }

    @Test
    void aWaiterThatGivesUpLeavesTheQueueSoTheLockIsNotHandedToIt() throws Exception {
        FencedLock holder = registry(UnaryOperator.identity()).obtain("job");
        FencedLock quitter = registry(UnaryOperator.identity()).obtain("job");
        holder.lock();

        assertThat(quitter.tryLock(Duration.ofMillis(300))).isFalse();
        assertThat(queueLength()).isZero();
        holder.unlock();

        assertThat(redis.server().command("EXISTS", "distlock:{job}")).isEqualTo(0L);
        assertThat(quitter.tryLock(Duration.ZERO)).isTrue();
        quitter.unlock();
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
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> lockAndRecord(waiter, "waiter",
                new ArrayList<>(), fences));
        awaitUntil(() -> queueLength() == 1);

        holder.unlock();

        assertThat(waiting.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(fences).singleElement().satisfies(fence -> assertThat(fence).isGreaterThan(holderFence));
    }

    @Test
    void aQueuedWaiterThatDiedBlocksTheLockForAtMostItsLease() throws Exception {
        FencedLock holder = registry(UnaryOperator.identity()).obtain("job");
        FencedLock next = registry(UnaryOperator.identity()).obtain("job");
        holder.lock();
        // what a process leaves behind when it dies while queued with a 300 ms lease
        redis.server().command("APPEND", "distlock:{job}", " ");
        redis.server().command("RPUSH", QUEUE, "ghost 300");

        holder.unlock();

        assertThat((String) redis.server().command("GET", "distlock:{job}")).startsWith("ghost ");
        assertThat(next.tryLock(PATIENCE)).isTrue();
        next.unlock();
    }

    @Test
    void busyProcessesTakeTurns() throws Exception {
        int processes = 4;
        int total = 400;
        AtomicInteger done = new AtomicInteger();
        List<CompletableFuture<Integer>> counts = new ArrayList<>();
        for (int i = 0; i < processes; i++) {
            FencedLock lock = registry(UnaryOperator.identity()).obtain("job");
            counts.add(CompletableFuture.supplyAsync(() -> {
                int mine = 0;
                while (true) {
                    lock.lock();
                    try {
                        if (done.incrementAndGet() > total) {
                            return mine;
                        }
                        mine++;
                    } finally {
                        lock.unlock();
                    }
                }
            }));
        }
        List<Integer> perProcess = new ArrayList<>();
        for (CompletableFuture<Integer> count : counts) {
            perProcess.add(count.get(60, TimeUnit.SECONDS));
        }

        assertThat(perProcess.stream().mapToInt(Integer::intValue).sum()).isEqualTo(total);
        // a releasing process that took the lock straight back would starve the others
        assertThat(Collections.min(perProcess)).as("acquisitions per process %s", perProcess)
                .isGreaterThanOrEqualTo(Collections.max(perProcess) / 2);
    }

    private static boolean lockAndRecord(FencedLock lock, String name, List<String> order, List<Long> fences) {
        try {
            if (!lock.tryLock(PATIENCE.multipliedBy(3))) {
                return false;
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
        try {
            order.add(name);
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

}
