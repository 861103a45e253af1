package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.DistributedLock.TimeoutAction;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockInterruptedException;
import dev.distlock.core.LockInfo;
import dev.distlock.core.LockTimeoutException;
import dev.distlock.memory.InMemoryLockRegistry;
import dev.distlock.memory.InMemoryLockStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
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
import reactor.test.StepVerifier;

/** A lock held by "another process" (a second registry on the same store): FAIL, SKIP and interrupts. */
class LockTimeoutTest {

    private AnnotationConfigApplicationContext context;
    private Busy busy;
    private InMemoryLockRegistry otherProcess;
    private FencedLock held;

    @BeforeEach
    void start() {
        context = new AnnotationConfigApplicationContext(Config.class);
        busy = context.getBean(Busy.class);
        otherProcess = InMemoryLockRegistry.builder().store(context.getBean(InMemoryLockStore.class)).build();
        held = otherProcess.obtain("busy:7");
        held.lock();
    }

    @AfterEach
    void stop() {
        held.unlock();
        otherProcess.close();
        context.close();
    }

    @Test
    void failThrowsALockTimeoutExceptionNamingTheLabelTheKeyTheMethodAndTheWait() {
        assertThatThrownBy(() -> busy.fail(7)).isInstanceOf(LockTimeoutException.class)
                .isInstanceOf(LockAcquisitionTimeoutException.class)
                .hasMessageContaining("Lock 'payments' (key 'busy:7') could not be acquired within 0ms")
                .hasMessageContaining("LockTimeoutTest$Busy.fail")
                .hasMessageContaining("the method was not invoked")
                .satisfies(ex -> {
                    LockAcquisitionTimeoutException timeout = (LockAcquisitionTimeoutException) ex;
                    assertThat(timeout.getLockName()).isEqualTo("busy:7");
                    assertThat(timeout.getLabel()).isEqualTo("payments");
                    assertThat(timeout.getWaited()).isEqualTo(Duration.ZERO);
                    // who held it, read once on the timeout
                    assertThat(timeout.getHeldWhenTimedOut()).extracting(LockInfo::fencingToken)
                            .containsExactly(held.fencingToken());
                    assertThat(timeout).hasMessageContaining("(when the wait ran out: held by ");
                });
        assertThat(busy.invocations()).isZero();
    }

    @Test
    void failAfterAWaitReportsHowLongItWaited() {
        assertThatThrownBy(() -> busy.failAfterWaiting(7)).isInstanceOf(LockAcquisitionTimeoutException.class)
                .hasMessageMatching("(?s).*within 50ms \\(waited \\d{2,}ms\\).*");
        assertThat(busy.invocations()).isZero();
    }

    @Test
    void skipReturnsNothingForEachPlainReturnType() {
        assertThat(busy.object(7)).isNull();
        assertThat(busy.optional(7)).isEmpty();
        assertThat(busy.primitiveInt(7)).isZero();
        assertThat(busy.primitiveLong(7)).isZero();
        assertThat(busy.primitiveBoolean(7)).isFalse();
        assertThat(busy.primitiveChar(7)).isEqualTo('\0');
        busy.nothing(7);
        assertThat(busy.invocations()).isZero();
    }

    @Test
    void skipCompletesTheFutureWithNull() {
        assertThat(busy.future(7)).succeedsWithin(Duration.ofSeconds(10)).isNull();
        assertThat(busy.stage(7).toCompletableFuture()).succeedsWithin(Duration.ofSeconds(10)).isNull();
        assertThat(busy.invocations()).isZero();
    }

    @Test
    void skipGivesAnEmptyMonoAndAnEmptyFlux() {
        StepVerifier.create(busy.mono(7)).expectComplete().verify(Duration.ofSeconds(10));
        StepVerifier.create(busy.flux(7)).expectComplete().verify(Duration.ofSeconds(10));
        assertThat(busy.invocations()).isZero();
    }

    @Test
    void failSignalsTheTimeoutToMonoAndFluxSubscribers() {
        long token = held.fencingToken(); // the holder's thread asks: the error arrives on another
        StepVerifier.create(busy.failingMono(7)).expectErrorSatisfies(ex -> assertThat(ex)
                .isInstanceOfSatisfying(LockAcquisitionTimeoutException.class, timeout -> assertThat(
                        timeout.getHeldWhenTimedOut()).extracting(LockInfo::fencingToken).containsExactly(token)))
                .verify(Duration.ofSeconds(10));
        StepVerifier.create(busy.failingFlux(7)).expectErrorMatches(ex -> ex.getMessage().contains("key 'busy:7'"))
                .verify(Duration.ofSeconds(10));
        assertThat(busy.invocations()).isZero();
    }

    @Test
    void anInterruptedWaitThrowsLockInterruptedExceptionAndKeepsTheFlag() {
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> busy.waitLong(7)).isInstanceOf(LockInterruptedException.class)
                    .hasMessageContaining("'busy:7'");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(busy.invocations()).isZero();
    }

    static class Busy {

        private final AtomicInteger invocations = new AtomicInteger();

        public int invocations() {
            return invocations.get();
        }

        @DistributedLock(name = "'busy:' + #id", timeout = "0", label = "payments")
        public String fail(int id) {
            return "ran " + invocations.incrementAndGet();
        }

        @DistributedLock(name = "'busy:' + #id", timeout = "50ms")
        public String failAfterWaiting(int id) {
            return "ran " + invocations.incrementAndGet();
        }

        @DistributedLock(name = "'busy:' + #id")
        public String waitLong(int id) {
            return "ran " + invocations.incrementAndGet();
        }

        @DistributedLock(name = "'busy:' + #id", timeout = "0", onTimeout = TimeoutAction.SKIP)
        public Object object(int id) {
            return invocations.incrementAndGet();
        }

        @DistributedLock(name = "'busy:' + #id", timeout = "0", onTimeout = TimeoutAction.SKIP)
        public Optional<String> optional(int id) {
            return Optional.of("ran " + invocations.incrementAndGet());
        }

        @DistributedLock(name = "'busy:' + #id", timeout = "0", onTimeout = TimeoutAction.SKIP)
        public int primitiveInt(int id) {
            return invocations.incrementAndGet();
        }

        @DistributedLock(name = "'busy:' + #id", timeout = "0", onTimeout = TimeoutAction.SKIP)
        public long primitiveLong(int id) {
            return invocations.incrementAndGet();
        }

        @DistributedLock(name = "'busy:' + #id", timeout = "0", onTimeout = TimeoutAction.SKIP)
        public boolean primitiveBoolean(int id) {
            return invocations.incrementAndGet() > 0;
        }

        @DistributedLock(name = "'busy:' + #id", timeout = "0", onTimeout = TimeoutAction.SKIP)
        public char primitiveChar(int id) {
            invocations.incrementAndGet();
            return 'x';
        }

        @DistributedLock(name = "'busy:' + #id", timeout = "0", onTimeout = TimeoutAction.SKIP)
        public void nothing(int id) {
            invocations.incrementAndGet();
        }

        @DistributedLock(name = "'busy:' + #id", timeout = "0", onTimeout = TimeoutAction.SKIP)
        public CompletableFuture<String> future(int id) {
            return CompletableFuture.completedFuture("ran " + invocations.incrementAndGet());
        }

        @DistributedLock(name = "'busy:' + #id", timeout = "0", onTimeout = TimeoutAction.SKIP)
        public CompletionStage<String> stage(int id) {
            return CompletableFuture.completedFuture("ran " + invocations.incrementAndGet());
        }

        @DistributedLock(name = "'busy:' + #id", timeout = "0", onTimeout = TimeoutAction.SKIP)
        public Mono<String> mono(int id) {
            invocations.incrementAndGet();
            return Mono.just("ran");
        }

        @DistributedLock(name = "'busy:' + #id", timeout = "0", onTimeout = TimeoutAction.SKIP)
        public Flux<String> flux(int id) {
            invocations.incrementAndGet();
            return Flux.just("ran", "twice");
        }

        @DistributedLock(name = "'busy:' + #id", timeout = "0")
        public Mono<String> failingMono(int id) {
            invocations.incrementAndGet();
            return Mono.just("ran");
        }

        @DistributedLock(name = "'busy:' + #id", timeout = "0")
        public Flux<String> failingFlux(int id) {
            invocations.incrementAndGet();
            return Flux.just("ran");
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean
        Busy busy() {
            return new Busy();
        }
    }
}
