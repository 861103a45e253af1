package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockRegistry;
import dev.distlock.memory.InMemoryLockRegistry;
import dev.distlock.memory.InMemoryLockStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

/** Mono/Flux methods lock per subscription and release when it ends, never before the work finishes. */
class ReactorLockTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    private AnnotationConfigApplicationContext context;
    private Streams streams;
    private LockRegistry registry;
    private InMemoryLockRegistry otherProcess;

    @BeforeEach
    void start() {
        context = new AnnotationConfigApplicationContext(Config.class);
        streams = context.getBean("streams", Streams.class);
        registry = context.getBean(LockRegistry.class);
        otherProcess = InMemoryLockRegistry.builder().store(context.getBean(InMemoryLockStore.class)).build();
    }

    @AfterEach
    void stop() {
        otherProcess.close();
        context.close();
    }

    @Test
    void aMonoLocksOnSubscribeHoldsWhileItRunsAndReleasesBeforeItsSubscriberSeesTheEnd() {
        Sinks.One<String> work = Sinks.one();
        Mono<String> mono = streams.mono("a", work.asMono());

        assertThat(streams.invocations()).as("nothing happens before subscription").isZero();
        assertThat(registry.obtain("a").isLocked()).isFalse();

        StepVerifier.create(mono)
                .then(() -> {
                    streams.awaitInvoked("a");
                    assertThat(registry.obtain("a").isLocked()).isTrue();
                    work.tryEmitValue("done");
                })
                .expectNext("done").expectComplete().verify(BOUND);

        assertThat(registry.obtain("a").isLocked()).isFalse();
        // acquired without blocking a thread (no boundedElastic worker): the method runs where the acquisition
        // completed, a registry thread, or the subscribing thread if it had completed by then
        assertThat(streams.threadOf("a")).doesNotStartWith("boundedElastic");
    }

    @Test
    void aFluxHoldsTheLockWhileItEmitsAndReleasesBeforeCompletion() {
        Sinks.Many<Integer> work = Sinks.many().unicast().onBackpressureBuffer();

        StepVerifier.create(streams.flux("b", work.asFlux()))
                .then(() -> {
                    streams.awaitInvoked("b");
                    work.tryEmitNext(1);
                })
                .expectNext(1)
                .then(() -> {
                    assertThat(registry.obtain("b").isLocked()).isTrue();
                    work.tryEmitNext(2);
                    work.tryEmitComplete();
                })
                .expectNext(2).expectComplete().verify(BOUND);

        assertThat(registry.obtain("b").isLocked()).isFalse();
    }

    @Test
    void anErrorReleasesTheLockBeforeItIsSignalled() {
        Sinks.One<String> work = Sinks.one();
        IllegalStateException boom = new IllegalStateException("boom");

        StepVerifier.create(streams.mono("c", work.asMono()))
                .then(() -> {
                    streams.awaitInvoked("c");
                    work.tryEmitError(boom);
                })
                .expectErrorMatches(error -> error == boom).verify(BOUND);

        assertThat(registry.obtain("c").isLocked()).isFalse();
    }

    @Test
    void aMethodThatThrowsInsteadOfReturningAPublisherSignalsTheErrorAndReleases() {
        StepVerifier.create(streams.throwing("d")).expectError(IllegalArgumentException.class).verify(BOUND);

        assertThat(registry.obtain("d").isLocked()).isFalse();
    }

    @Test
    void cancellingCancelsTheWorkAndReleasesTheLock() throws InterruptedException {
        CountDownLatch workCancelled = new CountDownLatch(1);
        CountDownLatch workSubscribed = new CountDownLatch(1);
        Mono<String> never = Mono.<String>never().doOnSubscribe(subscription -> workSubscribed.countDown())
                .doOnCancel(workCancelled::countDown);

        StepVerifier.create(streams.mono("e", never))
                .then(() -> await(workSubscribed))
                .thenCancel().verify(BOUND);

        // the cancel may reach the work on another thread, just after verify returned
        assertThat(workCancelled.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        // the release runs asynchronously after the cancel: waiting for the lock proves it happens
        FencedLock lock = otherProcess.obtain("e");
        assertThat(lock.tryLock(BOUND)).isTrue();
        lock.unlock();
    }

    @Test
    void takingPartOfAFluxCancelsItAndReleases() throws InterruptedException {
        StepVerifier.create(streams.flux("f", Flux.range(1, 1_000_000)).take(3))
                .expectNext(1, 2, 3).expectComplete().verify(BOUND);

        FencedLock lock = otherProcess.obtain("f");
        assertThat(lock.tryLock(BOUND)).isTrue();
        lock.unlock();
    }

    @Test
    void eachSubscriptionInvokesTheMethodUnderItsOwnHold() {
        Mono<Long> token = streams.fencingToken("g");

        Long first = token.block(BOUND);
        Long second = token.block(BOUND);

        assertThat(streams.invocations()).isEqualTo(2);
        assertThat(second).isGreaterThan(first);
    }

    @Test
    void theContextIsVisibleToTheMethodBodyAndToItsPipeline() {
        StepVerifier.create(streams.contexts("h"))
                .assertNext(keys -> assertThat(keys).containsExactly("h", "h"))
                .expectComplete().verify(BOUND);
        StepVerifier.create(ReactiveLockContext.current())
                .expectErrorMessage("ReactiveLockContext.current() was subscribed outside the Mono/Flux of a "
                        + "@DistributedLock method")
                .verify(BOUND);
    }

    @Test
    void aNestedSubscriptionWithTheSameKeyRunsUnderTheOuterHold() {
        // the inner method waits 0: it would fail if it tried to take the lock again
        StepVerifier.create(streams.outerThenInner("i")).expectNext("inner of i").expectComplete().verify(BOUND);

        assertThat(registry.obtain("i").isLocked()).isFalse();
    }

    @Test
    void aKeyThatCannotBeEvaluatedIsAnErrorSignalNotAThrow() {
        Mono<String> mono = streams.mono(null, Mono.just("never"));

        StepVerifier.create(mono).expectError(LockKeyEvaluationException.class).verify(BOUND);
        assertThat(streams.invocations()).isZero();
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(BOUND.toSeconds(), TimeUnit.SECONDS)).as("awaited").isTrue();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }

    static class Streams {

        private final AtomicInteger invocations = new AtomicInteger();
        private final Map<String, CountDownLatch> invoked = new ConcurrentHashMap<>();
        private final Map<String, String> threads = new ConcurrentHashMap<>();
        private Streams inner;

        void setInner(Streams inner) {
            this.inner = inner;
        }

        public int invocations() {
            return invocations.get();
        }

        public String threadOf(String key) {
            return threads.get(key);
        }

        public void awaitInvoked(String key) {
            await(latch(key));
        }

        @DistributedLock(name = "#key")
        public Mono<String> mono(String key, Mono<String> work) {
            record(key);
            return work;
        }

        @DistributedLock(name = "#key")
        public Flux<Integer> flux(String key, Flux<Integer> work) {
            record(key);
            return work;
        }

        @DistributedLock(name = "#key")
        public Mono<String> throwing(String key) {
            throw new IllegalArgumentException("no mono today");
        }

        @DistributedLock(name = "#key")
        public Mono<Long> fencingToken(String key) {
            invocations.incrementAndGet();
            return Mono.just(LockContext.current().fencingToken());
        }

        @DistributedLock(name = "#key")
        public Mono<List<String>> contexts(String key) {
            String inBody = LockContext.current().key();
            return ReactiveLockContext.current().map(lock -> List.of(inBody, lock.key()));
        }

        @DistributedLock(name = "#key")
        public Mono<String> outerThenInner(String key) {
            return Mono.just(key).flatMap(inner::innerNoWait);
        }

        @DistributedLock(name = "#key", timeout = "0")
        public Mono<String> innerNoWait(String key) {
            return ReactiveLockContext.current().map(lock -> "inner of " + lock.key());
        }

        private void record(String key) {
            invocations.incrementAndGet();
            threads.put(key, Thread.currentThread().getName());
            latch(key).countDown();
        }

        private CountDownLatch latch(String key) {
            return invoked.computeIfAbsent(key, ignored -> new CountDownLatch(1));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean
        Streams innerStreams() {
            return new Streams();
        }

        @Bean
        Streams streams(Streams innerStreams) {
            Streams streams = new Streams();
            streams.setInner(innerStreams);
            return streams;
        }
    }
}
