package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.DetachedLock;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import dev.distlock.memory.InMemoryLockStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * Methods returning CompletionStage/CompletableFuture return at once, run once the lock is held (on the application's
 * task executor) and keep the lock until their result completes.
 */
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

        assertThat(async.nextInvocation()).isEqualTo("a");
        assertThat(result).isNotDone();
        assertThat(registry.obtain("a").isLocked()).isTrue();
        // the hold belongs to no thread: the caller never owned it
        assertThat(registry.obtain("a").isHeldByCurrentThread()).isFalse();

        work.complete("done");

        assertThat(result.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo("done");
        assertThat(registry.obtain("a").isLocked()).isFalse();
    }

    @Test
    void aCallOnABusyLockReturnsAtOnceAndRunsOnTheTaskExecutorOnceTheLockIsFree() throws Exception {
        DetachedLock other = registry.obtain("busy").lockAsync().toCompletableFuture().get(BOUND.toSeconds(),
                TimeUnit.SECONDS);

        CompletableFuture<String> result = async.future("busy", CompletableFuture.completedFuture("ran"));

        assertThat(result).isNotDone();
        assertThat(async.invocationsSoFar()).isEmpty();
        other.unlock();
        assertThat(result.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo("ran");
        assertThat(async.lastThread()).startsWith("app-task-");
        assertThat(registry.obtain("busy").isLocked()).isFalse();
    }

    @Test
    void callsOnOneNameRunOneAtATimeInArrivalOrder() throws Exception {
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> firstResult = async.future("b", first);
        assertThat(async.nextInvocation()).isEqualTo("b");

        CompletableFuture<String> second = async.future("b", CompletableFuture.completedFuture("second"));

        assertThat(second).isNotDone();
        assertThat(async.invocationsSoFar()).isEmpty();
        first.complete("first");

        assertThat(second.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo("second");
        assertThat(firstResult).isCompletedWithValue("first");
    }

    @Test
    void cancellingAWaitingCallLeavesTheQueueAndNeverRunsTheMethod() throws Exception {
        DetachedLock other = registry.obtain("k").lockAsync().toCompletableFuture().get(BOUND.toSeconds(),
                TimeUnit.SECONDS);
        CompletableFuture<String> waiting = async.future("k", CompletableFuture.completedFuture("never"));

        assertThat(waiting.cancel(true)).isTrue();
        other.unlock();

        // a later call gets the lock, which the cancelled one neither took nor kept
        assertThat(async.future("k", CompletableFuture.completedFuture("later")).get(BOUND.toSeconds(),
                TimeUnit.SECONDS)).isEqualTo("later");
        assertThat(async.nextInvocation()).isEqualTo("k");
        assertThat(async.invocationsSoFar()).isEmpty();
        assertThat(registry.obtain("k").isLocked()).isFalse();
        assertThatThrownBy(waiting::join).isInstanceOf(CancellationException.class);
    }

    @Test
    void aTimeoutFailsTheStageWithoutRunningTheMethod() throws Exception {
        DetachedLock other = registry.obtain("t").lockAsync().toCompletableFuture().get(BOUND.toSeconds(),
                TimeUnit.SECONDS);
        try {
            assertThat(async.futureNoWait("t", CompletableFuture.completedFuture("never")))
                    .failsWithin(BOUND).withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(LockAcquisitionTimeoutException.class);
            assertThat(async.invocationsSoFar()).isEmpty();
        } finally {
            other.unlock();
        }
    }

    @Test
    void aCompletionStageIsReleasedWhenItCompletesOnAnotherThread() throws Exception {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletionStage<String> result = async.stage("c", work);
        assertThat(async.nextInvocation()).isEqualTo("c");

        CompletableFuture.runAsync(() -> work.complete("elsewhere"));

        assertThat(result.toCompletableFuture().get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo("elsewhere");
        assertThat(registry.obtain("c").isLocked()).isFalse();
    }

    @Test
    void aFailedFutureReleasesTheLockAndKeepsItsException() throws Exception {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> result = async.future("d", work);
        assertThat(async.nextInvocation()).isEqualTo("d");
        IllegalStateException boom = new IllegalStateException("boom");

        work.completeExceptionally(boom);

        assertThatThrownBy(() -> result.get(BOUND.toSeconds(), TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasRootCause(boom);
        assertThat(registry.obtain("d").isLocked()).isFalse();
    }

    @Test
    void aThrowingMethodFailsTheStageAndReleases() {
        assertThat(async.throwing("e")).failsWithin(BOUND).withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(IllegalArgumentException.class);
        assertThat(registry.obtain("e").isLocked()).isFalse();
    }

    @Test
    void aNullFutureCompletesTheStageWithNullAndReleases() {
        assertThat(async.future("f", null)).succeedsWithin(BOUND).isNull();
        assertThat(registry.obtain("f").isLocked()).isFalse();
    }

    @Test
    void aLockLostWhileTheFutureRanFailsTheResult() throws Exception {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> result = async.future("g", work);
        assertThat(async.nextInvocation()).isEqualTo("g");

        context.getBean(InMemoryLockStore.class).delete("g");
        work.complete("too late");

        assertThatThrownBy(result::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(LockLostException.class);
    }

    @Test
    void aReleaseFailureAfterAFailedFutureIsSuppressed() throws Exception {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> result = async.future("h", work);
        assertThat(async.nextInvocation()).isEqualTo("h");
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

        assertThat(async.nextInvocation()).isEqualTo("i");
        assertThat(captured.get().key()).isEqualTo("i");
        assertThat(captured.get().isHeld()).isTrue();
        work.complete("done");
        result.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertThat(captured.get().isHeld()).isFalse();
    }

    @Test
    void anAsynchronousCallNestedInABlockingCallHoldingTheSameLockRunsUnderTheOuterHold() {
        String outcome = context.getBean(Outer.class).outerThenAsync("j");

        assertThat(outcome).isEqualTo("inner done, outer still holds: true");
        assertThat(registry.obtain("j").isLocked()).isFalse();
    }

    @Test
    void callsNestedInTheMethodOnTheSameLockRunUnderItsHold() throws Exception {
        CompletableFuture<String> result = context.getBean(Outer.class).asyncThenNested("n");

        // both inner calls wait 0: each would fail if it tried to take the lock again
        assertThat(result.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo("blocking inner, async inner");
        assertThat(registry.obtain("n").isLocked()).isFalse();
    }

    static class Async {

        private final BlockingQueue<String> invocations = new LinkedBlockingQueue<>();
        private volatile String lastThread;

        /** The key of the next invocation of a method, waited for. */
        public String nextInvocation() throws InterruptedException {
            return invocations.poll(BOUND.toSeconds(), TimeUnit.SECONDS);
        }

        /** The keys of the invocations not yet taken by {@link #nextInvocation()}. */
        public List<String> invocationsSoFar() {
            return List.copyOf(invocations);
        }

        public String lastThread() {
            return lastThread;
        }

        private void invoked(String key) {
            lastThread = Thread.currentThread().getName();
            invocations.add(key);
        }

        @DistributedLock(name = "#key")
        public CompletableFuture<String> future(String key, CompletableFuture<String> work) {
            invoked(key);
            return work;
        }

        @DistributedLock(name = "#key", timeout = "0")
        public CompletableFuture<String> futureNoWait(String key, CompletableFuture<String> work) {
            invoked(key);
            return work;
        }

        @DistributedLock(name = "#key", timeout = "0")
        public String blockingNoWait(String key) {
            return "blocking inner";
        }

        @DistributedLock(name = "#key")
        public CompletionStage<String> stage(String key, CompletableFuture<String> work) {
            invoked(key);
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
            invoked(key);
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

        @DistributedLock(name = "#key")
        public CompletableFuture<String> asyncThenNested(String key) {
            String blocking = async.blockingNoWait(key);
            return async.futureNoWait(key, CompletableFuture.completedFuture("async inner"))
                    .thenApply(inner -> blocking + ", " + inner);
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

        /** As Spring Boot names its executor. */
        @Bean
        ThreadPoolTaskExecutor applicationTaskExecutor() {
            ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
            executor.setThreadNamePrefix("app-task-");
            return executor;
        }
    }
}
