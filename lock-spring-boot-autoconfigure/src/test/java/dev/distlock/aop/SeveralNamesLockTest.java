package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.DistributedLock.TimeoutAction;
import dev.distlock.core.DetachedLock;
import dev.distlock.core.LockRegistry;
import dev.distlock.test.Poll;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import reactor.core.publisher.Mono;

/** A name expression that gives several names locks them all at once, in any order without deadlock. */
class SeveralNamesLockTest {

    private static final Duration BOUND = Duration.ofSeconds(60);

    private AnnotationConfigApplicationContext context;
    private Accounts accounts;
    private LockRegistry registry;

    @BeforeEach
    void start() {
        context = new AnnotationConfigApplicationContext(Config.class);
        accounts = context.getBean(Accounts.class);
        registry = context.getBean(LockRegistry.class);
    }

    @AfterEach
    void stop() {
        context.close();
    }

    @Test
    void transfersListingTheNamesInOppositeOrdersTakeTurnsWithoutDeadlock() throws Exception {
        int rounds = 300;
        CompletableFuture<Void> forwards = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < rounds; i++) {
                accounts.transfer("a", "b");
            }
        });
        CompletableFuture<Void> backwards = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < rounds; i++) {
                accounts.transfer("b", "a");
            }
        });

        CompletableFuture.allOf(forwards, backwards).get(BOUND.toSeconds(), TimeUnit.SECONDS);

        assertThat(accounts.transfers()).as("increments, each a read and a write apart").isEqualTo(2 * rounds);
        assertThat(accounts.mostInside()).isOne();
    }

    @Test
    void theCallSeesAFencingTokenPerNameInTheirCanonicalOrder() {
        AtomicReference<LockContext> seen = new AtomicReference<>();

        accounts.capture("z", "m", seen::set);

        Map<String, Long> tokens = seen.get().fencingTokens();
        assertThat(tokens.keySet()).containsExactly("account:m", "account:z");
        assertThat(seen.get().key()).isEqualTo("[account:m, account:z]");
        assertThatThrownBy(() -> seen.get().fencingToken()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("fencingTokens()");
    }

    @Test
    void theSameNameTwiceIsOneLockWithOneToken() {
        AtomicReference<LockContext> seen = new AtomicReference<>();

        accounts.capture("a", "a", seen::set);

        assertThat(seen.get().fencingTokens()).containsOnlyKeys("account:a");
        assertThat(seen.get().fencingToken()).isPositive();
    }

    @Test
    void whenOneNameStaysBusyTheCallSkipsAndTheOtherNameIsGivenBack() throws Exception {
        DetachedLock busy = registry.obtain("account:y").lockAsync().toCompletableFuture()
                .get(BOUND.toSeconds(), TimeUnit.SECONDS);
        try {
            assertThat(accounts.transferIfFree("x", "y")).isFalse();
            // given back without the call waiting for it
            Poll.until("account:x given back", BOUND, () -> registry.obtain("account:x").isLocked() ? "locked" : null);
        } finally {
            busy.unlock();
        }
        assertThat(accounts.transferIfFree("x", "y")).isTrue();
    }

    @Test
    void aMonoOnSeveralNamesHoldsThemAllWhileItRuns() {
        assertThat(accounts.transferLater("p", "q").block(BOUND)).isEqualTo(List.of(true, true));
        assertThat(registry.obtain("account:p").isLocked()).isFalse();
        assertThat(registry.obtain("account:q").isLocked()).isFalse();
    }

    @Test
    void noNameOrANullNameFailsTheCallNamingIt() {
        assertThatThrownBy(() -> accounts.each()).isInstanceOf(LockKeyEvaluationException.class)
                .hasMessageContaining("evaluated to no name");
        assertThatThrownBy(() -> accounts.each("a", null)).isInstanceOf(LockKeyEvaluationException.class)
                .hasMessageContaining("evaluated to null at [1]");
        assertThat(accounts.each("c", "d")).isEqualTo(2);
    }

    static class Accounts {

        private final LockRegistry registry;
        private final AtomicInteger transfers = new AtomicInteger();
        private final AtomicInteger inside = new AtomicInteger();
        private final AtomicInteger mostInside = new AtomicInteger();

        Accounts(LockRegistry registry) {
            this.registry = registry;
        }

        public int transfers() {
            return transfers.get();
        }

        public int mostInside() {
            return mostInside.get();
        }

        @DistributedLock(name = "{'account:' + #from, 'account:' + #to}", timeout = "60s")
        public void transfer(String from, String to) {
            mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
            int read = transfers.get();
            Thread.yield();
            transfers.set(read + 1);
            inside.decrementAndGet();
        }

        @DistributedLock(name = "{'account:' + #from, 'account:' + #to}")
        public void capture(String from, String to, Consumer<LockContext> seen) {
            seen.accept(LockContext.current());
        }

        @DistributedLock(name = "{'account:' + #from, 'account:' + #to}", timeout = "100ms",
                onTimeout = TimeoutAction.SKIP)
        public boolean transferIfFree(String from, String to) {
            return true;
        }

        @DistributedLock(name = "{'account:' + #from, 'account:' + #to}")
        public Mono<List<Boolean>> transferLater(String from, String to) {
            return Mono.fromSupplier(() -> List.of(registry.obtain("account:" + from).isLocked(),
                    registry.obtain("account:" + to).isLocked()));
        }

        @DistributedLock(name = "#names")
        public int each(String... names) {
            return Arrays.asList(names).size();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean
        Accounts accounts(LockRegistry registry) {
            return new Accounts(registry);
        }
    }
}
