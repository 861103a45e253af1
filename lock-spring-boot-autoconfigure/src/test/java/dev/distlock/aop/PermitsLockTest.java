package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.HeldLock;
import dev.distlock.core.InvalidLockNameException;
import dev.distlock.core.Lease;
import dev.distlock.core.LockInfo;
import dev.distlock.core.LockRegistry;
import dev.distlock.memory.InMemoryLockRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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

/**
 * {@code @DistributedLock(permits = n)}: at most n calls run at once, across "processes" (a registry of another
 * context on the same store counts), each with a permit of its own fencing token; a call that finds none free in time
 * fails like a lock's; a negative count and a name giving several names are refused.
 */
class PermitsLockTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    private AnnotationConfigApplicationContext context;
    private Supplier supplier;

    @BeforeEach
    void start() {
        context = new AnnotationConfigApplicationContext(Config.class);
        supplier = context.getBean(Supplier.class);
    }

    @AfterEach
    void stop() {
        supplier.open();
        context.close();
    }

    @Test
    void atMostTheDeclaredNumberOfCallsRunAtOnceAndTheNextGetsAPermitWhenOneEnds() throws Exception {
        List<CompletableFuture<Long>> calls = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            calls.add(CompletableFuture.supplyAsync(supplier::call));
        }
        assertThat(supplier.awaitTwoInside()).isTrue();

        assertThatThrownBy(supplier::callWithoutWaiting).isInstanceOf(LockAcquisitionTimeoutException.class)
                .hasMessageContaining("supplier");
        assertThat(supplier.inside()).isEqualTo(2);
        supplier.open();

        List<Long> tokens = new ArrayList<>();
        for (CompletableFuture<Long> call : calls) {
            tokens.add(call.get(BOUND.toSeconds(), TimeUnit.SECONDS));
        }
        assertThat(tokens).doesNotHaveDuplicates();
        assertThat(supplier.mostInside()).isEqualTo(2);
        assertThat(supplier.callWithoutWaiting()).as("a permit free again").isPositive();
        assertThat(context.getBean(LockRegistry.class).semaphore("supplier", 2).tryAcquire(2, Duration.ZERO))
                .as("both permits given back").isNotNull();
    }

    @Test
    void aNameGivingSeveralNamesIsRefused() {
        assertThatThrownBy(() -> supplier.several(List.of("a", "b"))).isInstanceOf(InvalidLockNameException.class)
                .hasMessageContaining("permits = 2").hasMessageContaining("give one name");
    }

    @Test
    void aNegativeCountIsRefusedAtStartup() {
        assertThatThrownBy(() -> new AnnotationConfigApplicationContext(Negative.class))
                .hasStackTraceContaining("permits = -1 is negative");
    }

    @Test
    void permitsOnARegistryWithoutSemaphoresFailTheStartupNamingTheMethod() {
        assertThatThrownBy(() -> new AnnotationConfigApplicationContext(WithoutSemaphores.class))
                .hasStackTraceContaining("PermitsLockTest$Supplier.").hasStackTraceContaining("permits = 2 needs semaphores")
                .hasStackTraceContaining("offers no semaphores");
    }

    static class Supplier {

        private final CountDownLatch entered = new CountDownLatch(2);
        private final CountDownLatch release = new CountDownLatch(1);
        private final AtomicInteger inside = new AtomicInteger();
        private final AtomicInteger mostInside = new AtomicInteger();

        public boolean awaitTwoInside() throws InterruptedException {
            return entered.await(BOUND.toSeconds(), TimeUnit.SECONDS);
        }

        public void open() {
            release.countDown();
        }

        public int inside() {
            return inside.get();
        }

        public int mostInside() {
            return mostInside.get();
        }

        @DistributedLock(name = "supplier", permits = 2, timeout = "30s")
        public long call() {
            int now = inside.incrementAndGet();
            mostInside.accumulateAndGet(now, Math::max);
            entered.countDown();
            try {
                release.await(BOUND.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            inside.decrementAndGet();
            return LockContext.current().fencingToken();
        }

        @DistributedLock(name = "supplier", permits = 2, timeout = "0")
        public long callWithoutWaiting() {
            return LockContext.current().fencingToken();
        }

        @DistributedLock(name = "#names", permits = 2, timeout = "0")
        public void several(List<String> names) {
        }
    }

    static class Broken {

        @DistributedLock(name = "broken", permits = -1)
        public void call() {
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean
        Supplier supplier() {
            return new Supplier();
        }
    }

    /** A registry that offers locks only: every call but {@code semaphore} goes to an in-memory one. */
    record LocksOnly(InMemoryLockRegistry memory) implements LockRegistry, AutoCloseable {

        @Override
        public FencedLock obtain(String name, Lease lease, String label) {
            return memory.obtain(name, lease, label);
        }

        @Override
        public FencedLock obtainAll(Collection<String> names, Lease lease, String label) {
            return memory.obtainAll(names, lease, label);
        }

        @Override
        public List<HeldLock> heldLocks() {
            return memory.heldLocks();
        }

        @Override
        public LockInfo inspect(String name) {
            return memory.inspect(name);
        }

        @Override
        public void close() {
            memory.close();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.Advice.class)
    static class WithoutSemaphores {

        @Bean(destroyMethod = "close")
        LocksOnly lockRegistry() {
            return new LocksOnly(InMemoryLockRegistry.builder().build());
        }

        @Bean
        Supplier supplier() {
            return new Supplier();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Negative {

        @Bean
        Broken broken() {
            return new Broken();
        }
    }
}
