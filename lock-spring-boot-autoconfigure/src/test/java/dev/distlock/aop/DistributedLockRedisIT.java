package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockRegistry;
import dev.distlock.test.RedisServer;
import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** {@code @DistributedLock} on real Redis: two application contexts play two processes. */
class DistributedLockRedisIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final Duration BOUND = Duration.ofSeconds(60);

    private AnnotationConfigApplicationContext first;
    private AnnotationConfigApplicationContext second;

    @BeforeEach
    void start() {
        first = process(redis.server());
        second = process(redis.server());
    }

    @AfterEach
    void stop() {
        first.close();
        second.close();
    }

    @Test
    void twoProcessesIncrementingOneRedisCounterWithGetThenSetLoseNoUpdate() throws Exception {
        int threadsPerProcess = 3;
        int rounds = 30;
        List<ConcurrentCalls.Call> callers = new ArrayList<>();
        for (AnnotationConfigApplicationContext process : List.of(first, second)) {
            Counter counter = process.getBean(Counter.class);
            callers.addAll(Collections.nCopies(threadsPerProcess, () -> counter.increment("shared")));
        }

        ConcurrentCalls.repeat(callers, rounds, BOUND);

        assertThat(first.getBean(StringRedisTemplate.class).opsForValue().get("counter:shared"))
                .isEqualTo(String.valueOf(2 * threadsPerProcess * rounds));
    }

    @Test
    void aLockHeldByTheOtherProcessTimesOutWithTheLabelKeyAndWait() {
        FencedLock held = second.getBean(LockRegistry.class).obtain("counter:busy");
        held.lock();
        try {
            assertThatThrownBy(() -> first.getBean(Counter.class).incrementOrFail("busy"))
                    .isInstanceOf(LockAcquisitionTimeoutException.class)
                    .hasMessageContaining("Lock 'Counter.incrementOrFail' (key 'counter:busy') could not be "
                            + "acquired within 100ms");
        } finally {
            held.unlock();
        }
    }

    @Test
    void aMonoHoldsTheRedisKeyUntilItCompletes() {
        StringRedisTemplate template = first.getBean(StringRedisTemplate.class);

        StepVerifier.create(first.getBean(Counter.class).heldInside("reactive"))
                .expectNext(true).expectComplete().verify(BOUND);

        // the lock's key is <prefix>:{name}; freed, it stays with its last fencing token, by design
        assertThat(Counter.held(template.opsForValue().get("distlock:{reactive}"))).isFalse();
    }

    private static AnnotationConfigApplicationContext process(RedisServer server) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        // the address, not the server: a context closes its AutoCloseable beans
        context.registerBean(RedisStandaloneConfiguration.class,
                () -> new RedisStandaloneConfiguration(server.host(), server.port()));
        context.register(Process.class);
        context.refresh();
        return context;
    }

    static class Counter {

        private final StringRedisTemplate redis;

        Counter(StringRedisTemplate redis) {
            this.redis = redis;
        }

        /** A GET then a SET: only the lock keeps concurrent increments from overwriting each other. */
        @DistributedLock(name = "'counter:' + #name")
        public void increment(String name) {
            String value = redis.opsForValue().get("counter:" + name);
            redis.opsForValue().set("counter:" + name, String.valueOf(value == null ? 1 : Long.parseLong(value) + 1));
        }

        @DistributedLock(name = "'counter:' + #name", timeout = "100ms")
        public void incrementOrFail(String name) {
            increment(name);
        }

        @DistributedLock(name = "#name")
        public Mono<Boolean> heldInside(String name) {
            return Mono.fromCallable(() -> held(redis.opsForValue().get("distlock:{" + name + "}")));
        }

        /** Whether a lock key's value is a hold: not gone, and not freed ('~', kept with its last token). */
        static boolean held(String value) {
            return value != null && !value.startsWith("~ ");
        }
    }

    /** One "process": its own connection factory, registry and proxies. */
    @Configuration(proxyBeanMethods = false)
    @Import(RedisLockProcess.class)
    static class Process {

        @Bean
        StringRedisTemplate stringRedisTemplate(LettuceConnectionFactory redisConnectionFactory) {
            return new StringRedisTemplate(redisConnectionFactory);
        }

        @Bean
        Counter counter(StringRedisTemplate stringRedisTemplate) {
            return new Counter(stringRedisTemplate);
        }
    }
}
