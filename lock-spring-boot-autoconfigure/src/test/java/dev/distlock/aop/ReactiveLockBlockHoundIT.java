package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import reactor.blockhound.BlockHound;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Annotated {@code Mono} methods, Kotlin {@code suspend} functions and {@code CompletableFuture} methods called and
 * completed on Reactor's threads, on a real redis-server through Lettuce's shared connection (Spring Boot's default),
 * with BlockHound watching every thread that must never block: Lettuce's event loops, Reactor's parallel threads,
 * the registry's timer and its step threads (where non-blocking calls run and answers are handled). From the
 * acquisition to the release, contended or not, nothing blocks there, the first connection to Redis included (made
 * on a thread of its own). Only the registry's call threads may block (they serve stores whose client blocks), and
 * none is used here.
 *
 * <p>BlockHound stays installed for the rest of the JVM, so this class runs in a JVM of its own (the failsafe
 * execution {@code blockhound} of this module), with the JVM option BlockHound needs on Java 13 and later.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReactiveLockBlockHoundIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    /** The blocking calls BlockHound saw on a watched thread, each with where it was made. */
    private static final List<String> blocked = new CopyOnWriteArrayList<>();

    private static AnnotationConfigApplicationContext context;

    @BeforeAll
    static void watchTheNonBlockingThreads() {
        // with the integrations found on the class path: Reactor's marks its threads and allows its own queues,
        // distlock's allows its timer's queue (DistlockBlockHoundIntegration), as in an application
        BlockHound.install(builder -> builder
                .nonBlockingThreadPredicate(current -> current.or(thread -> mustNotBlock(thread.getName())))
                // an idle pool thread waiting for its next task blocks nobody
                .allowBlockingCallsInside("java.util.concurrent.ThreadPoolExecutor", "getTask")
                // Lettuce's brief lock around writing a command to the connection, taken by every caller of its
                // asynchronous and reactive APIs alike
                .allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "incrementWriters")
                .blockingMethodCallback(method -> blocked.add(Thread.currentThread().getName() + " called " + method
                        + " at\n" + where())));
    }

    @BeforeEach
    void startTheApplication() {
        if (context == null) {
            context = new AnnotationConfigApplicationContext();
            context.registerBean(RedisStandaloneConfiguration.class,
                    () -> new RedisStandaloneConfiguration(redis.server().host(), redis.server().port()));
            context.register(Application.class);
            context.refresh();
        }
    }

    @AfterAll
    static void stop() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void twoHundredSubscriptionsOnOneNameWaitAndReleaseWithoutBlockingAWatchedThread() {
        Counter counter = context.getBean(Counter.class);
        List<Integer> results = subscribedAtOnce(200, i -> counter.increment("one"));

        assertThat(results).hasSize(200);
        assertThat(counter.value()).as("increments, each a read and a write apart").isEqualTo(200);
        assertThat(counter.mostInside()).as("bodies at once").isEqualTo(1);
        assertThat(blocked).as("blocking calls on threads that must not block").isEmpty();
    }

    @Test
    void twoHundredSubscriptionsOnDistinctNamesLockWithoutBlockingAWatchedThread() {
        Counter counter = context.getBean(Counter.class);
        List<Integer> results = subscribedAtOnce(200, i -> counter.touch("name-" + i));

        assertThat(results).hasSize(200);
        assertThat(blocked).as("blocking calls on threads that must not block").isEmpty();
    }

    @Test
    void twoHundredReadersAndWritersOfOneNameShareItWithoutBlockingAWatchedThread() {
        Counter counter = context.getBean(Counter.class);
        List<Integer> results = subscribedAtOnce(200,
                i -> i % 10 == 0 ? counter.write("shared") : counter.read("shared"));

        assertThat(results).hasSize(200);
        assertThat(counter.writes()).isEqualTo(20);
        assertThat(counter.writersBesideOthers()).as("a writer beside another holder").isZero();
        assertThat(counter.mostReaders()).as("readers at once").isGreaterThan(1);
        assertThat(blocked).as("blocking calls on threads that must not block").isEmpty();
    }

    @Test
    void twoHundredSuspendCallsOnOneNameWaitAndReleaseWithoutBlockingAWatchedThread() {
        SuspendCounter counter = context.getBean(SuspendCounter.class);
        List<Integer> results = subscribedAtOnce(200, i -> SuspendCounter.incrementing(counter, "one"));

        assertThat(results).hasSize(200);
        assertThat(counter.value()).as("increments, each a read and a write a suspension apart").isEqualTo(200);
        assertThat(blocked).as("blocking calls on threads that must not block").isEmpty();
    }

    @Test
    void futureMethodsCalledAndCompletedOnReactorsParallelThreadsNeverBlockThem() {
        Counter counter = context.getBean(Counter.class);
        // each call is made on a parallel thread: it returns at once, the wait for the lock being a pending future
        List<Integer> results = subscribedAtOnce(200, i -> Mono.defer(() -> Mono.fromFuture(
                counter.incrementLater("later"))).subscribeOn(Schedulers.parallel()));

        assertThat(results).hasSize(200).doesNotHaveDuplicates();
        assertThat(counter.later()).as("increments, each a read and a write apart").isEqualTo(200);
        assertThat(blocked).as("blocking calls on threads that must not block").isEmpty();
    }

    /** {@code count} calls made, then all subscribed at once; their results (at most 100 s). */
    private static List<Integer> subscribedAtOnce(int count, IntFunction<Mono<Integer>> call) {
        List<Mono<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            calls.add(call.apply(i));
        }
        return Flux.merge(Flux.fromIterable(calls), calls.size()).collectList().block(Duration.ofSeconds(100));
    }

    /** Lettuce's event loops, the registry's step threads and its timer (Reactor marks its own threads). */
    private static boolean mustNotBlock(String thread) {
        return thread.startsWith("lettuce-") && thread.contains("EventLoop") || thread.startsWith("distlock-async-")
                || thread.equals("distlock-timer");
    }

    /** The blocking call's stack, without BlockHound's own frames. */
    private static String where() {
        return Arrays.stream(new Throwable().getStackTrace()).skip(2).limit(40)
                .filter(frame -> !frame.getClassName().startsWith("reactor.blockhound"))
                .map(frame -> "    " + frame).collect(Collectors.joining("\n"));
    }

    /** The work under the locks: a read, a millisecond timer, then the write. */
    static class Counter {

        private volatile int value;
        private volatile int later;
        private final AtomicInteger inside = new AtomicInteger();
        private final AtomicInteger mostInside = new AtomicInteger();

        public int value() {
            return value;
        }

        public int mostInside() {
            return mostInside.get();
        }

        @DistributedLock(name = "'counter:' + #name", timeout = "60s")
        public Mono<Integer> increment(String name) {
            return Mono.defer(() -> {
                mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                int read = value;
                return Mono.delay(Duration.ofMillis(1)).map(tick -> {
                    value = read + 1;
                    inside.decrementAndGet();
                    return read + 1;
                });
            });
        }

        /** Completes on one of Reactor's parallel threads, where the release must not block. */
        @DistributedLock(name = "'later:' + #name", timeout = "60s")
        public CompletableFuture<Integer> incrementLater(String name) {
            int read = later;
            return Mono.delay(Duration.ofMillis(1)).map(tick -> {
                later = read + 1;
                return read + 1;
            }).toFuture();
        }

        public int later() {
            return later;
        }

        @DistributedLock(name = "'touch:' + #name", timeout = "60s")
        public Mono<Integer> touch(String name) {
            return Mono.delay(Duration.ofMillis(1)).map(tick -> name.length());
        }

        private final AtomicInteger readers = new AtomicInteger();
        private final AtomicInteger writers = new AtomicInteger();
        private final AtomicInteger mostReaders = new AtomicInteger();
        private final AtomicInteger writes = new AtomicInteger();
        private final AtomicInteger writersBesideOthers = new AtomicInteger();

        @DistributedLock(name = "'rw:' + #name", mode = DistributedLock.Mode.READ, timeout = "60s")
        public Mono<Integer> read(String name) {
            return Mono.defer(() -> {
                mostReaders.accumulateAndGet(readers.incrementAndGet(), Math::max);
                if (writers.get() > 0) {
                    writersBesideOthers.incrementAndGet();
                }
                return Mono.delay(Duration.ofMillis(1)).map(tick -> readers.decrementAndGet());
            });
        }

        @DistributedLock(name = "'rw:' + #name", mode = DistributedLock.Mode.WRITE, timeout = "60s")
        public Mono<Integer> write(String name) {
            return Mono.defer(() -> {
                if (writers.incrementAndGet() > 1 || readers.get() > 0) {
                    writersBesideOthers.incrementAndGet();
                }
                return Mono.delay(Duration.ofMillis(1)).map(tick -> {
                    writers.decrementAndGet();
                    return writes.incrementAndGet();
                });
            });
        }

        public int mostReaders() {
            return mostReaders.get();
        }

        public int writes() {
            return writes.get();
        }

        public int writersBesideOthers() {
            return writersBesideOthers.get();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(RedisLockProcess.class)
    static class Application {

        @Bean
        Counter counter() {
            return new Counter();
        }

        @Bean
        SuspendCounter suspendCounter() {
            return new SuspendCounter();
        }
    }
}
