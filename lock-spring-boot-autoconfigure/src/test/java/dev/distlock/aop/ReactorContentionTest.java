package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.annotation.DistributedLock;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Many subscriptions to an annotated Mono on one name: each waits as a pending future, not a thread, so none times
 * out while its wait allows, they run one at a time in the order they subscribed, and the work is counted exactly.
 * (Before the non-blocking core, each waiting subscription blocked a boundedElastic worker: 500 subscriptions with a
 * 1 s wait gave 478 timeouts.) Speed belongs to the benchmarks; this asserts outcomes only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReactorContentionTest {

    private static final int SUBSCRIPTIONS = 500;

    @Test
    void fiveHundredSubscriptionsOnOneNameAllRunOneAtATimeInArrivalOrder() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(Config.class)) {
            Counter counter = context.getBean(Counter.class);
            int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();

            List<Mono<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < SUBSCRIPTIONS; i++) {
                calls.add(counter.increment(i));
            }
            List<Integer> results = Flux.merge(Flux.fromIterable(calls), SUBSCRIPTIONS).collectList()
                    .block(Duration.ofSeconds(100));
            int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();

            assertThat(results).hasSize(SUBSCRIPTIONS);
            assertThat(counter.value()).as("increments, each a read and a write apart").isEqualTo(SUBSCRIPTIONS);
            assertThat(counter.mostInside()).as("bodies at once").isEqualTo(1);
            assertThat(counter.order()).as("the order bodies ran in").hasSize(SUBSCRIPTIONS).isSorted();
            assertThat(threadsAfter - threadsBefore).as("threads started for %d waiting subscriptions", SUBSCRIPTIONS)
                    .isLessThan(30);
        }
    }

    /** Read through methods: the test holds the proxy, whose own fields are not the target's. */
    static class Counter {

        private volatile int value;
        private final AtomicInteger inside = new AtomicInteger();
        private final AtomicInteger mostInside = new AtomicInteger();
        private final List<Integer> order = new CopyOnWriteArrayList<>();

        public int value() {
            return value;
        }

        public int mostInside() {
            return mostInside.get();
        }

        public List<Integer> order() {
            return order;
        }

        /** A read, a timer of a millisecond, then the write: two bodies at once would lose an increment. */
        @DistributedLock(name = "counter", timeout = "60s")
        public Mono<Integer> increment(int arrival) {
            return Mono.defer(() -> {
                order.add(arrival);
                mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                int read = value;
                return Mono.delay(Duration.ofMillis(1)).map(tick -> {
                    value = read + 1;
                    inside.decrementAndGet();
                    return read + 1;
                });
            });
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean
        Counter counter() {
            return new Counter();
        }
    }
}
