package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import dev.distlock.memory.InMemoryLockStore;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** The lock is released however the method ends, and excludes concurrent callers while it runs. */
class LockReleaseTest {

    private AnnotationConfigApplicationContext context;
    private Jobs jobs;
    private LockRegistry registry;

    @BeforeEach
    void start() {
        context = new AnnotationConfigApplicationContext(Config.class);
        jobs = context.getBean(Jobs.class);
        registry = context.getBean(LockRegistry.class);
    }

    @AfterEach
    void stop() {
        context.close();
    }

    @Test
    void theLockIsReleasedWhenTheMethodReturns() {
        assertThat(jobs.run("a")).isEqualTo("done a");
        assertThat(registry.obtain("job:a").isLocked()).isFalse();
    }

    @Test
    void theLockIsReleasedWhenTheMethodThrowsAndTheExceptionIsUnchanged() {
        IllegalStateException boom = new IllegalStateException("boom");

        assertThatThrownBy(() -> jobs.fail("b", boom)).isSameAs(boom);
        assertThat(boom.getSuppressed()).isEmpty();
        assertThat(registry.obtain("job:b").isLocked()).isFalse();
    }

    @Test
    void checkedExceptionsPassThroughUnwrapped() {
        assertThatThrownBy(() -> jobs.failChecked("c")).isInstanceOf(IOException.class).hasMessage("disk full");
        assertThat(registry.obtain("job:c").isLocked()).isFalse();
    }

    @Test
    void aReleaseFailureAfterAMethodFailureIsSuppressedNotMasking() {
        IllegalStateException boom = new IllegalStateException("boom");

        assertThatThrownBy(() -> jobs.loseThenFail("d", boom)).isSameAs(boom);
        assertThat(boom.getSuppressed()).singleElement().isInstanceOf(LockLostException.class);
    }

    @Test
    void aReleaseFailureAfterSuccessReachesTheCaller() {
        assertThatThrownBy(() -> jobs.loseThenReturn("e")).isInstanceOf(LockLostException.class)
                .hasMessageContaining("job:e");
    }

    @Test
    void concurrentCallersWithTheSameKeyExcludeEachOther() throws Exception {
        int threads = 4;
        int rounds = 50;

        ConcurrentCalls.repeat(threads, rounds, Duration.ofSeconds(60), jobs::increment);

        assertThat(jobs.counter()).isEqualTo(threads * rounds);
        assertThat(jobs.maxInside()).isEqualTo(1);
    }

    static class Jobs {

        private final InMemoryLockStore store;
        private int counter;
        private int inside;
        private int maxInside;

        Jobs(InMemoryLockStore store) {
            this.store = store;
        }

        @DistributedLock(name = "'job:' + #name")
        public String run(String name) {
            return "done " + name;
        }

        @DistributedLock(name = "'job:' + #name")
        public void fail(String name, RuntimeException failure) {
            throw failure;
        }

        @DistributedLock(name = "'job:' + #name")
        public void failChecked(String name) throws IOException {
            throw new IOException("disk full");
        }

        @DistributedLock(name = "'job:' + #name")
        public void loseThenFail(String name, RuntimeException failure) {
            store.delete("job:" + name);
            throw failure;
        }

        @DistributedLock(name = "'job:' + #name")
        public String loseThenReturn(String name) {
            store.delete("job:" + name);
            return "lost";
        }

        /** A non-atomic read, yield, write: only exclusion keeps the count exact. */
        @DistributedLock(name = "counter")
        public void increment() {
            int now = ++inside;
            maxInside = Math.max(maxInside, now);
            int read = counter;
            Thread.yield();
            counter = read + 1;
            inside--;
        }

        @DistributedLock(name = "counter")
        public int counter() {
            return counter;
        }

        @DistributedLock(name = "counter")
        public int maxInside() {
            return maxInside;
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean
        Jobs jobs(InMemoryLockStore store) {
            return new Jobs(store);
        }
    }
}
