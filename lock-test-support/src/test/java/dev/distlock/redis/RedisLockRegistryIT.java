package dev.distlock.redis;

import static dev.distlock.redis.RedisProbes.PATIENCE;
import static dev.distlock.redis.RedisProbes.allCommandCalls;
import static dev.distlock.redis.RedisProbes.awaitUntil;
import static dev.distlock.redis.RedisProbes.commandCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.distlock.core.FencedLock;
import dev.distlock.core.LockBackendException;
import dev.distlock.test.RedisServerExtension;
import dev.distlock.test.RespClient;
import dev.distlock.test.contract.MutualExclusionFuzzer;
import dev.distlock.test.contract.RecordingListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What only the Redis registry does: keys and tokens, pub/sub economy, outages and restarts of Redis. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisLockRegistryIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final TestRegistries registries = new TestRegistries();

    @AfterEach
    void close() throws Exception {
        registries.close();
    }

    @Test
    void theLockKeyHoldsAFreshTokenPerAcquisitionAndKeepsTheLastOneWhenFreed() {
        RedisLockRegistry registry = registry(Client.LETTUCE, builder -> builder.keyPrefix("app"));
        FencedLock lock = registry.obtain("job");
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            lock.lock();
            tokens.add(((String) redis.server().command("GET", "app:{job}")).split(" ")[0]);
            assertThat((Long) redis.server().command("PTTL", "app:{job}")).isPositive();
            long fencingToken = lock.fencingToken();
            lock.unlock();
            assertThat((String) redis.server().command("GET", "app:{job}")).startsWith("~ " + fencingToken + " ");
            assertThat((Long) redis.server().command("PTTL", "app:{job}")).as("kept for the fence retention (1 h)")
                    .isGreaterThan(3_000_000L);
        }
        assertThat(tokens).doesNotContainNull().doesNotHaveDuplicates();
    }

    @Test
    void uncontendedLocksCostSevenCommandsAndPublishNothingWhileAHandOffTellsOnlyTheWaitersRegistry() throws Exception {
        RedisLockRegistry holderRegistry = registry(Client.LETTUCE, builder -> builder);
        RedisLockRegistry waiterRegistry = registry(Client.LETTUCE,
                builder -> builder.maxPollInterval(Duration.ofSeconds(30)));
        FencedLock holder = holderRegistry.obtain("quiet");
        redis.server().command("FUNCTION", "FLUSH"); // as a fresh server: earlier tests loaded the library
        redis.server().command("CONFIG", "RESETSTAT");
        holder.lock();
        holder.unlock();
        // the registry announces itself in the background after its first hold (for operators' inspect)
        awaitUntil(() -> !((List<?>) redis.server().command("KEYS", "distlock:instance:*")).isEmpty());
        // the hot path runs as functions of one library, loaded once after Redis answered that it lacks it; the
        // announcement is a script run by SHA, its text sent once, after Redis answered NOSCRIPT
        assertThat(commandCalls(redis.server(), "function|load")).isEqualTo(1);
        assertThat(commandCalls(redis.server(), "eval")).isEqualTo(1);

        redis.server().command("CONFIG", "RESETSTAT");
        for (int i = 0; i < 10; i++) {
            holder.lock();
            holder.unlock();
        }
        assertThat(commandCalls(redis.server(), "publish")).isZero();
        assertThat(channels()).isEmpty();
        // two round trips and seven commands per lock and unlock, counting those the functions run: FCALL, TIME,
        // SET NX GET (which finds the freed lock) and SET with the next token; FCALL, GET and SET to free it
        assertThat(commandCalls(redis.server(), "fcall")).isEqualTo(20);
        assertThat(commandCalls(redis.server(), "evalsha")).isZero();
        assertThat(allCommandCalls(redis.server())).isEqualTo(70);

        holder.lock();
        CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
            FencedLock lock = waiterRegistry.obtain("quiet");
            try {
                boolean acquired = lock.tryLock(Duration.ofSeconds(60));
                lock.unlock();
                return acquired;
            } catch (InterruptedException ex) {
                throw new IllegalStateException(ex);
            }
        });
        // the waiter subscribes its registry's channel, then queues itself: only then must a release publish
        awaitUntil(() -> redis.server().command("LLEN", "distlock:{quiet}:queue").equals(1L)
                && !channels().isEmpty());
        assertThat(channels()).singleElement().asString().startsWith("distlock:granted:");
        holder.unlock();

        // the waiter polls only every 30s, so getting the lock at once proves the notice woke it
        assertThat(waiter.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(commandCalls(redis.server(), "publish")).isEqualTo(1);
        assertThat(channels()).as("one channel per registry, kept").hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void aStoppedRedisFailsWithABackendErrorWithinTheWaitPlusOneCommandTimeout(Client client) throws Exception {
        RecordingListener listener = new RecordingListener();
        Duration commandTimeout = Duration.ofSeconds(1);
        RedisLockRegistry registry = registry(client, commandTimeout, builder -> builder.listener(listener));
        FencedLock held = registry.obtain("held");
        held.lock();

        redis.server().stop();
        Duration wait = Duration.ofMillis(500);
        long start = System.nanoTime();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertThatThrownBy(
                () -> registry.obtain("wanted").tryLock(wait))
                .isInstanceOf(LockBackendException.class).hasMessageContaining("'wanted'").hasCauseInstanceOf(
                        RuntimeException.class));
        Duration failedAfter = Duration.ofNanos(System.nanoTime() - start);
        assertThatThrownBy(held::unlock).isInstanceOf(LockBackendException.class).hasMessageContaining("'held'");

        assertThat(failedAfter).as("bounded by wait + one command timeout, with slack for a loaded machine")
                .isLessThan(wait.plus(commandTimeout).plusSeconds(10));
        assertThat(listener.events("acquireFailed")).singleElement()
                .satisfies(event -> assertThat(event.error()).isInstanceOf(LockBackendException.class));
        assertThat(listener.events("releaseFailed")).hasSize(1);
        assertThat(held.isHeldByCurrentThread()).isFalse();

        redis.server().restart();
        assertThat(retryUntilRedisAnswers(() -> registry.obtain("wanted").tryLock(PATIENCE))).isTrue();
    }

    @Test
    void fencingTokensKeepGrowingAcrossARestartThatLostAllData() throws Exception {
        RedisLockRegistry registry = registry(Client.LETTUCE, builder -> builder);
        FencedLock lock = registry.obtain("restarted");
        lock.lock();
        long before = lock.fencingToken();
        lock.unlock();

        redis.server().restart();

        assertThat(retryUntilRedisAnswers(() -> lock.tryLock(PATIENCE))).isTrue();
        assertThat(lock.fencingToken()).isGreaterThan(before);
        lock.unlock();
    }

    @Test
    void eightThreadsOnEachOfTwoProcessesKeepASharedRedisCounterExact() throws Exception {
        List<RedisLockRegistry> processes = List.of(registry(Client.LETTUCE, b -> b), registry(Client.LETTUCE, b -> b));
        try (RespClient counterClient = redis.server().client()) {
            MutualExclusionFuzzer.Result result = MutualExclusionFuzzer.run(processes, "counter", 8, 500,
                    new RedisCounter(counterClient), Duration.ofSeconds(100));

            assertThat(result.actual()).isEqualTo(result.expected()).isEqualTo(8000);
            assertThat(result.maxConcurrentHolders()).isEqualTo(1);
            assertThat(result.fencingTokensIncreased()).isTrue();
        }
    }

    /**
     * Threads of one registry on one name: each release hands the lock to the next thread with that thread's try in
     * the same function call, so a lock costs about one call instead of a release and an acquire.
     */
    @Test
    void eightThreadsOfOneRegistryOnOneNameHandTheLockOnInOneCallEach() throws Exception {
        RedisLockRegistry registry = registry(Client.LETTUCE, b -> b);
        registry.obtain("local").lock(); // loads the function library and reads the replicas online
        registry.obtain("local").unlock();
        redis.server().command("CONFIG", "RESETSTAT");
        try (RespClient counterClient = redis.server().client()) {
            MutualExclusionFuzzer.Result result = MutualExclusionFuzzer.run(List.of(registry), "local", 8, 200,
                    new RedisCounter(counterClient), Duration.ofSeconds(100));

            assertThat(result.actual()).isEqualTo(result.expected()).isEqualTo(1600);
            assertThat(result.maxConcurrentHolders()).isEqualTo(1);
            assertThat(result.fencingTokensIncreased()).isTrue();
        }
        long calls = commandCalls(redis.server(), "fcall") + commandCalls(redis.server(), "evalsha");
        assertThat(calls).as("function calls for 1,600 locks, about one each (two without the hand-off in one call)")
                .isLessThan(1600 * 5 / 4);
    }

    @Test
    void withoutTheLockTheSameCounterLosesUpdates() throws Exception {
        try (RespClient client = redis.server().client()) {
            RedisCounter counter = new RedisCounter(client);
            counter.write(0);
            List<CompletableFuture<Void>> workers = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                workers.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < 200; i++) {
                        long value = counter.read();
                        Thread.yield();
                        counter.write(value + 1);
                    }
                }));
            }
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            assertThat(counter.read()).isLessThan(1600);
        }
    }

    // --- helpers ---

    private RedisLockRegistry registry(Client client, java.util.function.UnaryOperator<RedisLockRegistry.Builder> settings) {
        return registry(client, Duration.ofSeconds(5), settings);
    }

    private RedisLockRegistry registry(Client client, Duration commandTimeout,
            java.util.function.UnaryOperator<RedisLockRegistry.Builder> settings) {
        return registries.registry(redis.server(), client, commandTimeout, settings);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> channels() {
        return (List<Object>) redis.server().command("PUBSUB", "CHANNELS", "*");
    }

    /** After a restart the client reconnects by itself; calls fail with a backend error until then. */
    private static boolean retryUntilRedisAnswers(Attempt attempt) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            try {
                return attempt.run();
            } catch (LockBackendException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
        }
    }

    @FunctionalInterface
    private interface Attempt {
        boolean run() throws Exception;
    }

    /** A counter in Redis updated with a separate GET and SET: only a lock keeps it exact. */
    private record RedisCounter(RespClient client) implements MutualExclusionFuzzer.SharedCounter {

        @Override
        public long read() {
            Object value = client.command("GET", "shared-counter");
            return value == null ? 0 : Long.parseLong((String) value);
        }

        @Override
        public void write(long value) {
            client.command("SET", "shared-counter", Long.toString(value));
        }
    }
}
