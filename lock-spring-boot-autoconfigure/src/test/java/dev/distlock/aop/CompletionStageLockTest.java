package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import dev.distlock.memory.InMemoryLockStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** Methods returning CompletionStage/CompletableFuture keep their lock until the result completes. */
class CompletionStageLockTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    private AnnotationConfigApplicationContext context;
    private Async async;
    private LockRegistry registry;

    @BeforeEach
    void start() {
        context = new AnnotationConfigApplicationContext(Config.class);
        async = context.getBean(Async.class);
        registry = context.getBean(LockRegistry.class);
    }

    @AfterEach
    void stop() {
        context.close();
    }

    @Test
    void theLockIsHeldUntilTheFutureCompletesAndFreeWhenTheCallerSeesTheResult() throws Exception {
        CompletableFuture<String> work = new CompletableFuture<>();

        CompletableFuture<String> result = async.future("a", work);

        assertThat(result).isNotDone();
        assertThat(registry.obtain("a").isLocked()).isTrue();
        // the hold was handed over: the calling thread no longer owns it, so it could not release it
        assertThat(registry.obtain("a").isHeldByCurrentThread()).isFalse();

        work.complete("done");

        assertThat(result.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo("done");
        assertThat(registry.obtain("a").isLocked()).isFalse();
    }

    @Test
    void anotherCallWaitsForTheFirstFutureToComplete() throws Exception {
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> firstResult = async.future("b", first);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<String> second = CompletableFuture.supplyAsync(
                    () -> async.future("b", CompletableFuture.completedFuture("second")).join(), pool);

            assertThat(second).isNotDone();
            first.complete("first");

            assertThat(second.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo("second");
            assertThat(firstResult).isCompletedWithValue("first");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aCompletionStageIsReleasedWhenItCompletesOnAnotherThread() throws Exception {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletionStage<String> result = async.stage("c", work);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            pool.execute(() -> work.complete("elsewhere"));
            assertThat(result.toCompletableFuture().get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo("elsewhere");
        } finally {
            pool.shutdownNow();
        }
        assertThat(registry.obtain("c").isLocked()).isFalse();
    }

    @Test
    void aFailedFutureReleasesTheLockAndKeepsItsException() {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> result = async.future("d", work);
        IllegalStateException boom = new IllegalStateException("boom");

        work.completeExceptionally(boom);

        assertThatThrownBy(() -> result.get(BOUND.toSeconds(), TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasRootCause(boom);
        assertThat(registry.obtain("d").isLocked()).isFalse();
    }

    @Test
    void aSynchronousThrowReleasesAtOnce() {
        assertThatThrownBy(() -> async.throwing("e")).isInstanceOf(IllegalArgumentException.class);
        assertThat(registry.obtain("e").isLocked()).isFalse();
    }

    @Test
    void aNullFutureReleasesAtOnce() {
        assertThat(async.future("f", null)).isNull();
        assertThat(registry.obtain("f").isLocked()).isFalse();
    }

    @Test
    void aLockLostWhileTheFutureRanFailsTheResult() {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> result = async.future("g", work);

        context.getBean(InMemoryLockStore.class).delete("g");
        work.complete("too late");

        assertThatThrownBy(result::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(LockLostException.class);
    }

    @Test
    void aReleaseFailureAfterAFailedFutureIsSuppressed() {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> result = async.future("h", work);
        IllegalStateException boom = new IllegalStateException("boom");

        context.getBean(InMemoryLockStore.class).delete("h");
        work.completeExceptionally(boom);

        assertThatThrownBy(result::join).hasCause(boom);
        assertThat(boom.getSuppressed()).singleElement().isInstanceOf(LockLostException.class);
    }

    @Test
    void aContextCapturedInTheMethodFollowsTheHoldUntilCompletion() throws Exception {
        CompletableFuture<String> work = new CompletableFuture<>();
        AtomicReference<LockContext> captured = new AtomicReference<>();

        CompletableFuture<String> result = async.capturing("i", work, captured);

        assertThat(captured.get().key()).isEqualTo("i");
        assertThat(captured.get().isHeld()).isTrue();
        work.complete("done");
        result.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertThat(captured.get().isHeld()).isFalse();
    }

    @Test
    void anAsynchronousCallNestedInACallHoldingTheSameLockRunsUnderTheOuterHold() {
        String outcome = context.getBean(Outer.class).outerThenAsync("j");

        assertThat(outcome).isEqualTo("inner done, outer still holds: true");
        assertThat(registry.obtain("j").isLocked()).isFalse();
    }

    static class Async {

        @DistributedLock(name = "#key")
        public CompletableFuture<String> future(String key, CompletableFuture<String> work) {
            return work;
        }

        @DistributedLock(name = "#key", timeout = "0")
        public CompletableFuture<String> futureNoWait(String key, CompletableFuture<String> work) {
            return work;
        }

        @DistributedLock(name = "#key")
        public CompletionStage<String> stage(String key, CompletableFuture<String> work) {
            return work.thenApply(value -> value);
        }

        @DistributedLock(name = "#key")
        public CompletableFuture<String> throwing(String key) {
            throw new IllegalArgumentException("no future today");
        }

        @DistributedLock(name = "#key")
        public CompletableFuture<String> capturing(String key, CompletableFuture<String> work,
                AtomicReference<LockContext> captured) {
            captured.set(LockContext.current());
            return work;
        }
    }

    static class Outer {

        private final Async async;
        private final LockRegistry registry;

        Outer(Async async, LockRegistry registry) {
            this.async = async;
            this.registry = registry;
        }

        @DistributedLock(name = "#key")
        public String outerThenAsync(String key) {
            // waits 0: re-entrant, or it would fail
            String inner = async.futureNoWait(key, CompletableFuture.completedFuture("inner done")).join();
            return inner + ", outer still holds: " + registry.obtain(key).isHeldByCurrentThread();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean
        Async async() {
            return new Async();
        }

        @Bean
        Outer outer(Async async, LockRegistry registry) {
            return new Outer(async, registry);
        }
    }
}
