package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.HeldLock;
import dev.distlock.core.LockRegistry;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** {@link LockContext} inside, between and outside annotated calls, and re-entrant calls. */
class LockContextTest {

    private static AnnotationConfigApplicationContext context;
    private static Outer outer;
    private static LockRegistry registry;

    @BeforeAll
    static void start() {
        context = new AnnotationConfigApplicationContext(Config.class);
        outer = context.getBean(Outer.class);
        registry = context.getBean(LockRegistry.class);
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @Test
    void outsideAnAnnotatedCallThereIsNoContext() {
        assertThat(LockContext.find()).isEmpty();
        assertThatThrownBy(LockContext::current).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("outside a @DistributedLock method");
    }

    @Test
    void insideTheCallTheContextNamesTheKeyLabelAndFencingTokenOfTheHold() {
        Snapshot inside = outer.snapshot("order:1", () -> registry.heldLocks());

        assertThat(inside.key()).isEqualTo("order:1");
        assertThat(inside.label()).isEqualTo("Outer.snapshot");
        assertThat(inside.held()).isTrue();
        assertThat(inside.registryView()).singleElement()
                .satisfies(held -> assertThat(held.fencingToken()).isEqualTo(inside.fencingToken()));
        assertThat(inside.context().isHeld()).isFalse();
        assertThat(LockContext.find()).isEmpty();
    }

    @Test
    void fencingTokensGrowFromCallToCall() {
        long first = outer.snapshot("order:2", List::of).fencingToken();
        long second = outer.snapshot("order:2", List::of).fencingToken();

        assertThat(second).isGreaterThan(first);
    }

    @Test
    void aNestedCallWithTheSameKeyReentersWithoutWaitingAndSharesTheHold() {
        Snapshot[] inner = new Snapshot[1];
        Snapshot around = outer.snapshot("order:3", () -> {
            // the inner method waits 0: it could not get the lock if the hold were not re-entrant
            inner[0] = outer.inner().sameKeyNoWait("order:3");
            assertThat(LockContext.current().key()).isEqualTo("order:3");
            assertThat(LockContext.current().isHeld()).isTrue();
            assertThat(registry.obtain("order:3").holdCount()).isEqualTo(1);
            return List.of();
        });

        assertThat(inner[0].key()).isEqualTo("order:3");
        assertThat(inner[0].fencingToken()).isEqualTo(around.fencingToken());
        assertThat(inner[0].context()).isNotSameAs(around.context());
        assertThat(registry.obtain("order:3").isLocked()).isFalse();
    }

    @Test
    void aNestedCallWithAnotherKeyIsInnermostUntilItReturns() {
        Snapshot[] inner = new Snapshot[1];
        Snapshot around = outer.snapshot("order:4", () -> {
            inner[0] = outer.inner().otherKey("order:5");
            assertThat(LockContext.current().key()).isEqualTo("order:4");
            return List.of();
        });

        assertThat(inner[0].key()).isEqualTo("order:5");
        assertThat(around.key()).isEqualTo("order:4");
        assertThat(LockContext.find()).isEmpty();
    }

    record Snapshot(LockContext context, String key, String label, long fencingToken, boolean held,
            List<HeldLock> registryView) {

        static Snapshot now(List<HeldLock> registryView) {
            LockContext current = LockContext.current();
            return new Snapshot(current, current.key(), current.label(), current.fencingToken(), current.isHeld(),
                    registryView);
        }
    }

    static class Outer {

        private final Inner inner;

        Outer(Inner inner) {
            this.inner = inner;
        }

        public Inner inner() {
            return inner;
        }

        @DistributedLock(name = "#key")
        public Snapshot snapshot(String key, Supplier<List<HeldLock>> during) {
            List<HeldLock> view = during.get();
            return Snapshot.now(view);
        }
    }

    static class Inner {

        @DistributedLock(name = "#key", timeout = "0")
        public Snapshot sameKeyNoWait(String key) {
            return Snapshot.now(List.of());
        }

        @DistributedLock(name = "#key", timeout = "0")
        public Snapshot otherKey(String key) {
            return Snapshot.now(List.of());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean
        Inner inner() {
            return new Inner();
        }

        @Bean
        Outer outer(Inner inner) {
            return new Outer(inner);
        }
    }
}
